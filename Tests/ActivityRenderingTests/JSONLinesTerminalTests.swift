import ActivityRendering
import ActivityWire
import TestSupport
import Testing

@Suite("JSON lines on a terminal")
struct JSONLinesTerminalTests {
    static let hostile = "del\u{7F} c1\u{9B}31m bidi\u{202E} nel\u{85}"

    static func events() -> [ActivityEvent] {
        [
            .begin(.init(id: ActivityID("j")!, title: hostile, timestamp: 1)),
            .end(.init(id: ActivityID("j")!, error: "done\u{9D}0;x", timestamp: 2)),
        ]
    }

    @Test("on a terminal: DEL, C1 and bidi controls are \\u escapes, passed-through text is sanitized")
    func terminal() throws {
        let pty = try PseudoTerminal(outputProcessing: false)
        defer { pty.close() }
        let renderer = JSONLinesRenderer(
            output: FileDescriptorOutput(fileDescriptor: pty.terminal), passesTextThrough: true)
        var store = ActivityStore()
        for event in Self.events() {
            for update in store.updates(applying: event) { renderer.render(update, in: store) }
        }
        renderer.passthrough(Array("text\u{1B}]0;PWNED\u{07}\u{9B}2J end\n".utf8), to: .stdout, in: store)
        try pty.wait { pty.text.contains("end\n") }
        let shown = pty.text
        #expect(shown.contains(#""title":"del\u007f c1\u009b31m bidi\u202e nel\u0085""#), "\(shown.debugDescription)")
        #expect(shown.contains(#""error":"done\u009d0;x""#))
        #expect(shown.contains("text end\n"))
        #expect(
            !shown.unicodeScalars.contains { $0.value == 0x7F || (0x80...0x9F).contains($0.value) || $0 == "\u{202E}" })
        #expect(!shown.contains("\u{1B}"))
        // The escaped lines are still the same events.
        let decoder = ActivityEventDecoder()
        let first = try #require(shown.split(separator: "\n").first)
        guard case .begin(let begin)? = decoder.decode(String(first), line: 1).event else {
            Issue.record("not a begin: \(first)")
            return
        }
        #expect(begin.title == Self.hostile)
    }

    @Test("anywhere else: every byte as it came")
    func notTerminal() {
        let buffer = BufferOutput()
        let renderer = JSONLinesRenderer(output: buffer, passesTextThrough: true)
        var store = ActivityStore()
        for event in Self.events() {
            for update in store.updates(applying: event) { renderer.render(update, in: store) }
        }
        let raw: [UInt8] = Array("text\u{1B}]0;PWNED\u{07}".utf8) + [0xFF, 0x0A]
        renderer.passthrough(raw, to: .stdout, in: store)
        #expect(buffer.text.contains("del\u{7F} c1\u{9B}31m bidi\u{202E}"))
        #expect(Array(buffer.writes.last!) == raw)
    }

    @Test("a line cut across writes goes out whole, and a last line without newline stays without")
    func partialLines() {
        let buffer = BufferOutput()
        let renderer = JSONLinesRenderer(output: buffer, passesTextThrough: true)
        var store = ActivityStore()
        renderer.passthrough(Array("hal".utf8), to: .stdout, in: store)
        #expect(buffer.writes.isEmpty, "half a line went out before an event could land in its middle")
        renderer.passthrough(Array("f a line\nand the".utf8), to: .stdout, in: store)
        for update in store.updates(applying: Self.events()[0]) { renderer.render(update, in: store) }
        renderer.passthrough(Array(" end".utf8), to: .stdout, in: store)
        renderer.finish(store, now: 0)
        let writes = buffer.writes.map { String(decoding: $0, as: UTF8.self) }
        #expect(writes.first == "half a line\n")
        #expect(writes.last == "and the end")
    }
}
