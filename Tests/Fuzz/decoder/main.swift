// libFuzzer target for the Swift wire decoder. Not a SwiftPM target: Scripts/fuzz compiles this file
// with Sources/ActivityWire/*.swift as one module (so the internals the checks compare, the fast
// path and the general decoder, are in reach) under -sanitize=fuzzer,address. Docs/fuzzing.md says
// how to run it long and how a crash becomes a fixture.
//
// Any input is a stream. Beyond "no crash", every input must keep these promises:
// - the items' bytes, each followed by a LF when `endsWithNewline` says so, are the input exactly;
// - an event, written canonically, decodes to the same event, and writes back to the same bytes;
// - a line either fast path (canonical, any order) accepts decodes to the same event through the
//   general decoder;
// - a diagnostic's message holds nothing that would act on a terminal (Schemas/README.md §8);
// - LineSplitter, the push-side twin of the line reader, cuts the input into the same pieces.
// A broken promise is a trap, which libFuzzer saves as a crash like any other.

/// Hands the input out in chunks whose sizes a generator seeded from the input picks, so the
/// fuzzer explores how reads cut lines without spending input bytes on it.
struct ChunkedSource: ByteSource {
    let bytes: UnsafeRawBufferPointer
    var offset = 0
    var generator: Generator

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        // Mostly tiny reads, where cuts fall inside tokens; sometimes large ones.
        let roll = generator.next()
        let limit = roll & 7 == 0 ? 1 + Int(roll >> 40) % 70_000 : 1 + Int(roll >> 40) % 17
        let count = min(buffer.count, limit, bytes.count - offset)
        guard count > 0 else { return 0 }
        buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
        offset += count
        return count
    }
}

/// A small deterministic generator (SplitMix64): a crash must replay from its input alone.
struct Generator {
    var state: UInt64

    /// Seeded by the input's FNV-1a hash.
    init(_ bytes: UnsafeRawBufferPointer) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        state = hash
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

let decoder = ActivityEventDecoder()
// No line limit: the round trip compares whole events, and truncating text would change them.
let encoder = ActivityEventEncoder(maxLineBytes: Int.max)

/// Scalars a diagnostic must show escaped, never raw.
func isHidden(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    case 0x200B...0x200D, 0x2060, 0xFEFF, 0x2028, 0x2029: true
    default: false
    }
}

func check(_ condition: Bool, _ message: @autoclosure () -> String, line: [UInt8]) {
    guard !condition else { return }
    let shown = String(decoding: line.prefix(300), as: UTF8.self).debugDescription
    fatalError("\(message()) in line \(shown)")
}

func checkLine(_ bytes: UnsafeBufferPointer<UInt8>, decoded: DecodedLine, number: Int) {
    let line = Array(bytes)
    if let diagnostic = decoded.diagnostic {
        check(!diagnostic.message.unicodeScalars.contains(where: isHidden), "a raw control in a message", line: line)
    }
    if let fast = CanonicalFastPath.event(bytes) {
        let event = fast.event()
        let general = decoder.decodeGenerally(bytes, line: number).decoded
        check(general == .event(event), "fast path \(event) but general \(general)", line: line)
    }
    if let fast = AnyOrderFastPath.event(bytes) {
        let event = fast.event()
        let general = decoder.decodeGenerally(bytes, line: number).decoded
        check(general == .event(event), "any-order fast path \(event) but general \(general)", line: line)
    }
    guard case .event(let event) = decoded else { return }
    let written = encoder.encode(event)
    check(written.last == UInt8(ascii: "\n"), "a written line without its LF", line: line)
    check(!written.dropLast().contains(UInt8(ascii: "\n")), "a LF inside a written line", line: line)
    let reread = decoder.decode(written.dropLast(), line: number)
    check(reread == .event(event), "\(event) written as \(written) reads back as \(reread)", line: line)
    if case .event(let again) = reread {
        check(encoder.encode(again) == written, "a second writing differs from the first", line: line)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: size == 0 ? nil : data, count: size)
    var generator = Generator(input)
    // A small limit now and then, so inputs far shorter than 64 KiB still take the overlong path.
    let choice = generator.next()
    let maxLineBytes = choice & 3 == 0 ? 1 + Int(choice >> 32) % 200 : WireLimits.maxAcceptedLineBytes
    var reader = EventStreamReader(
        source: ChunkedSource(bytes: input, generator: generator), maxLineBytes: maxLineBytes)
    var validator = StreamValidator()
    var pieces: [(bytes: [UInt8], complete: Bool, newline: Bool)] = []
    var reassembled: [UInt8] = []
    reassembled.reserveCapacity(size)
    var lastLine = 0
    do {
        try reader.forEach { item in
            reassembled.append(contentsOf: item.bytes)
            pieces.append((Array(item.bytes), item.part == .whole || item.part == .last, item.endsWithNewline))
            if item.endsWithNewline { reassembled.append(UInt8(ascii: "\n")) }
            check(item.line >= lastLine, "line \(item.line) after line \(lastLine)", line: Array(item.bytes))
            lastLine = item.line
            check(
                item.part == .whole || item.decoded.diagnostic?.code == .lineTooLong,
                "a piece of an overlong line decoded as \(item.decoded)", line: Array(item.bytes))
            if item.part == .whole {
                checkLine(item.bytes, decoded: item.decoded, number: item.line)
                check(
                    item.decoded == decoder.decode(item.bytes, line: item.line),
                    "the stream and the line decoder disagree", line: Array(item.bytes))
            }
            if item.isLineStart, let event = item.decoded.event {
                _ = validator.check(event, line: item.line)
            }
        }
    } catch {
        fatalError("an in-memory source cannot fail, yet: \(error)")
    }
    _ = validator.finish(atLine: lastLine)
    check(reassembled.elementsEqual(input), "the items do not reassemble the input", line: reassembled)

    var splitter = LineSplitter(maxLineBytes: maxLineBytes)
    var split: [(bytes: [UInt8], complete: Bool, newline: Bool)] = []
    var offset = 0
    while offset < size {
        let count = min(size - offset, 1 + Int(generator.next() % 300))
        splitter.feed(UnsafeRawBufferPointer(rebasing: input[offset..<offset + count])) {
            split.append((Array($0.bytes), $0.isComplete, $0.endsWithNewline))
        }
        offset += count
    }
    splitter.finish { split.append((Array($0.bytes), $0.isComplete, $0.endsWithNewline)) }
    check(
        split.map(\.bytes) == pieces.map(\.bytes) && split.map(\.complete) == pieces.map(\.complete)
            && split.map(\.newline) == pieces.map(\.newline),
        "LineSplitter cuts \(split.count) pieces, LineReader \(pieces.count)", line: Array(input.prefix(300)))
    return 0
}
