import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `activity replay [--speed X] [--max-gap S] [display options] FILE`: plays a recorded stream
/// with its original timing.
enum ReplayCommand {
    static let spec = CommandSpec(
        name: "replay", summary: "play a recorded stream with its original timing", arguments: "FILE",
        positionals: .file,
        optionGroups: [
            OptionGroup(
                title: "options",
                options: [
                    .value("speed", "X", help: "the speed factor (default 1)"),
                    .value("max-gap", "S", help: "wait at most S seconds between two events (default: no limit)"),
                ]),
            DisplayOptions.group,
        ],
        description: """
            Plays a recorded stream (for example from --log-file PATH --log-format jsonl) with its
            original timing, X times faster (--speed 2) or slower (--speed 0.5).
            """)
    static let parser = OptionParser(spec)

    static func run(_ arguments: [String]) throws(CommandLineError) -> Int32 {
        let parsed = try parser.parse(arguments)
        var options = try DisplayOptions(parsed, parser: parser)
        // Played with its own timing: as it happened.
        options.eventsAreLive = true
        try parser.expectPositionals(parsed, 1...1, names: "FILE")
        let speed = try parser.positiveNumber(parsed, "speed") ?? 1
        let maxGap = try parser.positiveNumber(parsed, "max-gap")
        let file = parsed.positionals[0]
        guard let fd = CommandInput.descriptor(for: file) else {
            Console.error("\(file): \(SystemError.reason(errno))", command: "replay")
            return ExitCode.noInput
        }
        defer { CommandInput.release(fd) }
        if let status = options.refuseLogFile(readFrom: fd, command: "replay") { return status }
        let display: SessionDisplay
        switch options.makeDisplay(command: "replay") {
        case .success(let made): display = made
        case .failure(let error): return error.exitStatus
        }
        let watcher = SignalWatcher.start(finishing: display)
        let feeder = StreamFeeder(display: display, pacer: Pacer(speed: speed, maxGap: maxGap))
        let status = feeder.feed(fd: fd, name: file, command: "replay")
        watcher.finish()
        return status
    }
}
