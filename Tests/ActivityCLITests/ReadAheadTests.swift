import ActivityWire
import Dispatch
import Foundation
import Testing

@testable import ActivityCLI

/// The read-ahead of `activity render` hands on exactly what reading and decoding on the
/// consumer's own thread would, in the same order, however the reads and its blocks cut the
/// stream; it ends with the stream's error after the lines before it, and never holds on to a
/// consumer that stops.
@Suite("activity render: reading and decoding ahead on a thread of its own")
struct ReadAheadTests {
    /// What a consumer sees of one line, its texts read from the bytes it was handed.
    enum Seen: Equatable, CustomStringConvertible {
        case event(line: Int, String)
        case item(line: Int, LinePart, String, newline: Bool, String)

        var description: String {
            switch self {
            case .event(let line, let event): "\(line) event \(event)"
            case .item(let line, let part, let bytes, let newline, let decoded):
                "\(line) \(part) \(bytes.debugDescription)\(newline ? "⏎" : "") \(decoded)"
            }
        }

        init(_ event: LineEvent, line: Int) {
            self = .event(line: line, String(describing: event.event()))
        }

        init(_ item: StreamItem) {
            self = .item(
                line: item.line, item.part, String(decoding: item.bytes, as: UTF8.self),
                newline: item.endsWithNewline, String(describing: item.decoded))
        }
    }

    static let maxLineBytes = 100

    /// Events in the canonical form and not, text, blank lines, broken events, lines longer than
    /// `maxLineBytes` (text and event-like), and a last line without its newline.
    static let stream: [UInt8] = {
        var lines: [String] = []
        for i in 0..<240 {
            lines.append(#"{"v":1,"type":"begin","ts":\#(1000 + i),"id":"a\#(i)","title":"Step \#(i) ✓"}"#)
            lines.append("plain text \(i)")
            lines.append(#"{"v":1,"type":"progress","ts":\#(1000 + i),"id":"a\#(i)","completed":\#(i),"total":240}"#)
            lines.append(#"{ "v": 1, "type": "log", "id": "a\#(i)", "message": "spaced \#(i)" }"#)
            if i % 7 == 0 { lines.append(#"{"v":1,"type":"bogus","id":"a\#(i)"}"#) }
            if i % 11 == 0 { lines.append("") }
            if i % 50 == 0 { lines.append(String(repeating: "long text \(i) ", count: 30)) }
            if i % 60 == 0 {
                lines.append(#"{"v":1,"type":"log","id":"a\#(i)","message":"\#(String(repeating: "x", count: 150))"}"#)
            }
            lines.append(#"{"v":1,"type":"end","ts":\#(1001 + i),"id":"a\#(i)","status":"success"}"#)
        }
        return Array((lines.joined(separator: "\n") + "\nthe last line, unfinished").utf8)
    }()

    /// What reading on the consumer's thread sees.
    static func readInPlace(_ source: some ByteSource) throws -> [Seen] {
        var reader = EventStreamReader(source: source, maxLineBytes: maxLineBytes)
        var seen: [Seen] = []
        try reader.forEach(events: { seen.append(Seen($0, line: $1)) }, others: { seen.append(Seen($0)) })
        return seen
    }

    /// Hands out its bytes `small` at a time up to `until`, then `large` at a time: a producer
    /// that gets ahead of its reader part-way.
    struct SteppedSource: ByteSource, Sendable {
        var bytes: [UInt8]
        var small: Int
        var until: Int
        var large: Int
        var offset = 0

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let count = min(buffer.count, offset < until ? small : large, bytes.count - offset)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
            offset += count
            return count
        }
    }

    /// What the read-ahead hands on, after how many blocks, and whether it read on a thread of
    /// its own.
    static func readAhead(
        _ source: some ByteSource & Sendable, blockCount: Int = 2, aheadAfterBytes: Int
    ) throws
        -> (seen: [Seen], blocks: Int, ahead: Bool)
    {
        var readAhead = ReadAhead(source: source)
        readAhead.blockBytes = 64
        readAhead.blockCount = blockCount
        readAhead.maxLineBytes = maxLineBytes
        readAhead.aheadAfterBytes = aheadAfterBytes
        var seen: [Seen] = []
        var blocks = 0
        let ahead = try readAhead.forEach(
            events: { seen.append(Seen($0, line: $1)) }, others: { seen.append(Seen($0)) }, flush: { blocks += 1 })
        return (seen, blocks, ahead)
    }

    @Test(
        "every line arrives once, in order, decoded as in place, however reads and blocks cut it",
        arguments: [1, 7, 64, 101, 4096], [2, 3])
    func sameAsInPlace(chunkSize: Int, blockCount: Int) throws {
        let expected = try Self.readInPlace(BytesSource(Self.stream, chunkSize: 4096))
        #expect(expected.count > 1000)
        // Ahead from the first read on.
        let (seen, blocks, ahead) = try Self.readAhead(
            BytesSource(Self.stream, chunkSize: chunkSize), blockCount: blockCount, aheadAfterBytes: 1)
        #expect(ahead)
        #expect(blocks > 2 * blockCount, "the blocks went round the ring")
        Self.expect(seen, expected)
    }

    @Test("a stream that never gets ahead is read on the consumer's thread, line for line the same")
    func neverAhead() throws {
        let expected = try Self.readInPlace(BytesSource(Self.stream, chunkSize: 4096))
        let (seen, _, ahead) = try Self.readAhead(BytesSource(Self.stream, chunkSize: 7), aheadAfterBytes: 8)
        #expect(!ahead)
        Self.expect(seen, expected)
    }

    @Test(
        "a stream that gets ahead part-way goes on from its next line on the reading thread",
        arguments: [1000, 1234, 5000, 20_000])
    func aheadPartWay(until: Int) throws {
        let expected = try Self.readInPlace(BytesSource(Self.stream, chunkSize: 4096))
        let source = SteppedSource(bytes: Self.stream, small: 5, until: until, large: 4096)
        let (seen, _, ahead) = try Self.readAhead(source, aheadAfterBytes: 40)
        #expect(ahead)
        Self.expect(seen, expected)
    }

    /// The first difference, not the whole of both.
    static func expect(_ seen: [Seen], _ expected: [Seen], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(seen.count == expected.count, sourceLocation: sourceLocation)
        if let index = seen.indices.first(where: { $0 < expected.count && seen[$0] != expected[$0] }) {
            Issue.record("entry \(index): \(seen[index]) instead of \(expected[index])", sourceLocation: sourceLocation)
        }
    }

    struct Broken: Error, Equatable {}

    /// Hands out a stream, then fails.
    struct FailingSource: ByteSource, Sendable {
        var bytes: BytesSource

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let count = try bytes.read(into: buffer)
            guard count > 0 else { throw Broken() }
            return count
        }
    }

    @Test("a read error comes after every line read before it", arguments: [1, Int.max])
    func readError(aheadAfterBytes: Int) throws {
        let expected = try Self.readInPlace(BytesSource(Self.stream + [0x0A]))
        var seen: [Seen] = []
        var readAhead = ReadAhead(source: FailingSource(bytes: BytesSource(Self.stream + [0x0A], chunkSize: 333)))
        readAhead.blockBytes = 64
        readAhead.maxLineBytes = Self.maxLineBytes
        readAhead.aheadAfterBytes = aheadAfterBytes
        #expect(throws: Broken()) {
            try readAhead.forEach(
                events: { seen.append(Seen($0, line: $1)) }, others: { seen.append(Seen($0)) }, flush: {})
        }
        Self.expect(seen, expected)
    }

    /// Reads a descriptor, and says when it has read its end.
    struct WatchedSource: ByteSource, Sendable {
        var base: FileDescriptorSource
        let ended: DispatchSemaphore

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let count = try base.read(into: buffer)
            if count == 0 { ended.signal() }
            return count
        }
    }

    struct Enough: Error {}

    @Test("a consumer that stops returns at once, the reading thread still waiting for input")
    func consumerStops() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        func send(_ id: String) {
            let line = Array((#"{"v":1,"type":"begin","id":"\#(id)","title":"A"}"# + "\n").utf8)
            #expect(write(fds[1], line, line.count) == line.count)
        }
        send("a")
        let ended = DispatchSemaphore(value: 0)
        var readAhead = ReadAhead(
            source: WatchedSource(base: FileDescriptorSource(fileDescriptor: fds[0]), ended: ended))
        // Ahead after the first read: the second line comes through the reading thread.
        readAhead.aheadAfterBytes = 1
        var events = 0
        // The writer stays open: were the consumer to wait for the reading thread, this would not
        // return.
        #expect(throws: Enough.self) {
            try readAhead.forEach(
                events: { _, _ in
                    events += 1
                    if events == 1 { send("b") } else { throw Enough() }
                }, others: { _ in }, flush: {})
        }
        #expect(events == 2)
        close(fds[1])
        // The reading thread reads the end and stops; only then is its descriptor closed.
        ended.wait()
        close(fds[0])
    }
}
