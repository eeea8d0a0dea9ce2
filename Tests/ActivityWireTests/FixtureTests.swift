import ActivityWire
import Foundation
import Testing

@Suite("Conformance fixtures")
struct FixtureTests {
    @Test("There are enough fixtures of each kind")
    func fixtureCounts() {
        #expect(Fixtures.streams(in: Fixtures.valid).count >= 10)
        #expect(Fixtures.streams(in: Fixtures.invalid).count >= 15)
        for stream in Fixtures.streams(in: Fixtures.invalid) {
            #expect(!Fixtures.expected(for: stream).isEmpty, "\(stream.lastPathComponent) lists no diagnostics")
        }
    }

    @Test("Valid streams give no errors, only their listed warnings", arguments: Fixtures.streams(in: Fixtures.valid))
    func validStream(_ stream: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: stream))
        let found = try Fixtures.diagnostics(of: bytes)
        #expect(found.allSatisfy { $0.severity == .warning }, "\(found)")
        #expect(
            found.map { Fixtures.Expected(line: $0.line, code: $0.code.rawValue) } == Fixtures.expected(for: stream))
    }

    @Test("Invalid streams give exactly their listed diagnostics", arguments: Fixtures.streams(in: Fixtures.invalid))
    func invalidStream(_ stream: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: stream))
        let found = try Fixtures.diagnostics(of: bytes)
        #expect(
            found.map { Fixtures.Expected(line: $0.line, code: $0.code.rawValue) } == Fixtures.expected(for: stream))
        #expect(found.allSatisfy { !$0.message.isEmpty })
    }

    @Test("Results do not depend on how reads cut the stream", arguments: [1, 2, 3, 7, 64, 4096])
    func chunking(_ chunkSize: Int) throws {
        for stream in Fixtures.streams(in: Fixtures.valid) + Fixtures.streams(in: Fixtures.invalid) {
            let bytes = try [UInt8](Data(contentsOf: stream))
            #expect(try Fixtures.diagnostics(of: bytes, chunkSize: chunkSize) == Fixtures.diagnostics(of: bytes))
        }
    }

    @Test("Valid fixtures decode to the events they spell")
    func nestedTreeContent() throws {
        let bytes = try [UInt8](Data(contentsOf: Fixtures.valid.appending(path: "nested-tree.jsonl")))
        var events: [ActivityEvent] = []
        var reader = EventStreamReader(source: BytesSource(bytes))
        try reader.forEach { if let event = $0.decoded.event { events.append(event) } }
        #expect(events.count == 11)
        guard case .begin(let compile) = events[1] else { Issue.record("not a begin"); return }
        #expect(compile.id == ActivityID("build.compile"))
        #expect(compile.parent == ActivityID("build"))
        #expect(compile.total == 3)
        #expect(compile.unit == "files")
        #expect(compile.timestamp == 1_764_417_600.1)
    }
}

@Suite("Overlong lines")
struct OverlongLineTests {
    private func stream(overlong: [UInt8]) -> [UInt8] {
        Array(#"{"v":1,"type":"begin","id":"a","title":"x"}"#.utf8) + [0x0A] + overlong + [0x0A]
            + Array(#"{"v":1,"type":"end","id":"a"}"#.utf8) + [0x0A]
    }

    @Test("An event line over 64 KiB is skipped with line-too-long, and the stream goes on")
    func overlongEvent() throws {
        let overlong =
            Array(#"{"v":1,"type":"log","message":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 70_000)
            + Array(#""}"#.utf8)
        let found = try Fixtures.diagnostics(of: stream(overlong: overlong), chunkSize: 4096)
        #expect(found.map(\.code) == [.lineTooLong])
        #expect(found.first?.line == 2)
        // What a consumer does with the line is its own: `render` passes it through.
        #expect(
            found.first?.message == "the line is longer than 65536 bytes, the most an event may be; not read as one")
    }

    @Test("A line of exactly 64 KiB is still read whole")
    func longestAccepted() throws {
        let prefix = Array(#"{"v":1,"type":"log","message":""#.utf8)
        let suffix = Array(#""}"#.utf8)
        let fill = WireLimits.maxAcceptedLineBytes - prefix.count - suffix.count
        let line = prefix + Array(repeating: UInt8(ascii: "y"), count: fill) + suffix
        #expect(line.count == WireLimits.maxAcceptedLineBytes)
        #expect(try Fixtures.diagnostics(of: stream(overlong: line)).isEmpty)
        #expect(try Fixtures.diagnostics(of: stream(overlong: line + [0x20])).map(\.code) == [.lineTooLong])
    }

    @Test("A 20 MB line is delivered in bounded pieces")
    func boundedMemory() throws {
        let huge = [UInt8](repeating: UInt8(ascii: "z"), count: 20_000_000)
        var reader = LineReader(source: BytesSource(stream(overlong: huge), chunkSize: 1 << 20))
        var largestPiece = 0
        var parts: [LineReader<BytesSource>.Part] = []
        var total = 0
        try reader.forEachLine { line in
            largestPiece = max(largestPiece, line.bytes.count)
            if line.number == 2 { total += line.bytes.count }
            if parts.last != line.part || line.part != .middle { parts.append(line.part) }
        }
        #expect(largestPiece <= WireLimits.maxAcceptedLineBytes + 1)
        #expect(total == huge.count)
        #expect(parts == [.whole, .first, .middle, .last, .whole])
    }

    @Test("Overlong lines come in pieces of exactly 64 KiB", arguments: [65_537, 100_000, 3 * 65_536])
    func pieceSizes(length: Int) throws {
        let line = [UInt8](repeating: UInt8(ascii: "p"), count: length)
        var reader = LineReader(source: BytesSource(stream(overlong: line), chunkSize: 5000))
        var pieces: [Int] = []
        try reader.forEachLine { if $0.number == 2 { pieces.append($0.bytes.count) } }
        let size = WireLimits.maxAcceptedLineBytes
        let count = (length + size - 1) / size  // the last piece holds the rest, up to a full piece
        #expect(pieces == Array(repeating: size, count: count - 1) + [length - (count - 1) * size])
    }

    @Test("An overlong text line is text, not an invalid event")
    func overlongText() throws {
        let text = [UInt8](repeating: UInt8(ascii: "t"), count: 100_000)
        var reader = EventStreamReader(source: BytesSource(stream(overlong: text)))
        var decoded: [DecodedLine] = []
        var passedThrough = 0
        try reader.forEach { item in
            if item.line == 2 { passedThrough += item.bytes.count }
            if item.isLineStart { decoded.append(item.decoded) }
        }
        guard case .text(let diagnostic) = decoded[1] else {
            Issue.record("expected text, got \(decoded[1])")
            return
        }
        #expect(diagnostic.code == .lineTooLong)
        #expect(passedThrough == text.count)
    }

    @Test("A final line without a newline is read")
    func unterminatedLastLine() throws {
        let bytes =
            Array(#"{"v":1,"type":"begin","id":"a","title":"x"}"#.utf8) + [0x0A]
            + Array(#"{"v":1,"type":"end","id":"a"}"#.utf8)
        #expect(try Fixtures.diagnostics(of: bytes).isEmpty)
    }
}
