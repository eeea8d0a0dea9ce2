// libFuzzer target for the consumers of a stream. Not a SwiftPM target: Scripts/fuzz compiles
// each module it drives (ActivityWire, ActivityTerminal, ActivityPOSIX, ActivityOverlay,
// ActivityRendering, ActivityTimeline) with -sanitize=fuzzer,address -enable-testing, then
// these files against them. Docs/fuzzing.md says how to run it and what it checks.
//
// The input is not a stream but the choices of a generator of streams the spec allows
// (StreamGenerator): coverage guides the choices, and every stream is valid, so the consumers'
// paths past the decoder are where the time goes. Each input goes through every consumer chosen
// by ACTIVITY_FUZZ_CONSUMERS (all by default): fold, plain, tty, log, jsonl, overlay, report,
// chrome-trace, otlp-json and history. A broken promise is a trap, which libFuzzer saves as a crash.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var choices = Choices(UnsafeRawBufferPointer(start: size == 0 ? nil : data, count: size))
    let run = ConsumerRun(&choices)
    var generator = StreamGenerator(choices)
    generator.generate()
    run.run(generator.steps)
    return 0
}
