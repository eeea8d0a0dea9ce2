import ActivityOverlay
import ActivityOverlayTerminal
import ActivityRendering
import ActivityWire
import Testing

/// The stream of the audit: a unit that sets the window title, clears the screen and starts a C1
/// colour sequence, reaching every display through the rate and count texts; and its siblings in
/// every other wire text field.
enum HostileWire {
    static let unit = "files\u{1B}]0;PWNED\u{07}\u{1B}[2J\u{9B}31m"
    static let bidi = "\u{202E}\u{2066}"

    static func events() -> [ActivityEvent] {
        let id = ActivityID("u")!
        return [
            .begin(
                .init(
                    id: id, title: "Copy" + bidi, total: 10, unit: unit, message: "start\u{1B}[5A",
                    attrs: ["k\u{1B}[2J": .string("v\u{9B}31m")], timestamp: 0)),
            .progress(.init(id: id, completed: 2, message: "half\u{1B}]0;PWNED\u{07}", timestamp: 1)),
            .progress(.init(id: id, completed: 5, title: "Copy\u{9B}2J" + bidi, timestamp: 2)),
            .log(.init(message: "log\u{1B}]0;PWNED\u{07}" + bidi, id: id, level: .warning, timestamp: 2.5)),
            .progress(.init(id: id, completed: 9, timestamp: 3)),
            .end(.init(id: id, status: .failure, message: "m\u{1B}[2J", error: "err\u{1B}[2J" + bidi, timestamp: 4)),
        ]
    }

    /// What a producer's text could do that must never reach a display: OSC strings, BEL, the
    /// screen clear, C1 controls, bidirectional controls.
    static func problems(in output: String, ownEscapes: Bool) -> [String] {
        var problems: [String] = []
        if output.contains("PWNED") { problems.append("PWNED") }
        if output.contains("\u{1B}]") { problems.append("OSC") }
        if output.contains("\u{1B}[2J") { problems.append("ESC [ 2 J") }
        if output.contains("\u{1B}[5A") { problems.append("ESC [ 5 A") }
        for scalar in output.unicodeScalars {
            switch scalar.value {
            case 0x07: problems.append("BEL")
            case 0x80...0x9F: problems.append("C1 \(scalar.value)")
            case 0x202A...0x202E, 0x2066...0x2069: problems.append("bidi \(scalar.value)")
            case 0x1B where !ownEscapes: problems.append("ESC")
            default: continue
            }
        }
        return problems
    }
}

@Suite("Wire text reaches no display unsanitized")
struct WireTextTests {
    @Test("the TTY frame: counts, rate, title, message, error and log lines")
    func ttyFrame() {
        let h = TerminalHarness(columns: 120, rows: 10, color: true)
        let events = HostileWire.events()
        for (index, event) in events.enumerated() {
            h.send(event)
            h.frame(at: Double(index), "frame \(index)")
        }
        h.finish(at: 5)
        let output = h.buffer.text
        #expect(HostileWire.problems(in: output, ownEscapes: true).isEmpty, "\(output.debugDescription)")
        #expect(h.screen.unexpected.isEmpty, "\(h.screen.unexpected)")
        #expect(h.transcript.contains("/10 files"))
        #expect(h.transcript.contains("files/s"))
    }

    @Test("plain mode: begin, progress, log and end lines")
    func plain() {
        let buffer = BufferOutput()
        let renderer = TerminalRenderer(
            output: buffer,
            configuration: .init(mode: .plain, plainProgressInterval: 0, startTime: 0))
        var store = ActivityStore()
        for event in HostileWire.events() {
            for update in store.updates(applying: event) { renderer.render(update, in: store) }
        }
        renderer.finish(store, now: 5)
        #expect(HostileWire.problems(in: buffer.text, ownEscapes: false).isEmpty, "\(buffer.text.debugDescription)")
        #expect(buffer.text.contains("5/10 files"))
    }

    @Test("the text log: escaped, never raw")
    func logText() {
        let buffer = BufferOutput()
        let log = LogFileRenderer(output: buffer, format: .text, clock: { 0 })
        var store = ActivityStore()
        for event in HostileWire.events() {
            for update in store.updates(applying: event) { log.render(update, in: store) }
        }
        log.finish(store, now: 5)
        // The log names what arrived, as visible escapes: "PWNED" is text there, not a title.
        let problems = HostileWire.problems(in: buffer.text, ownEscapes: false).filter { $0 != "PWNED" }
        #expect(problems.isEmpty, "\(buffer.text.debugDescription)")
        #expect(buffer.text.contains("unit=\"files\\x1b]0;PWNED\\x07\\x1b[2J\\x9b31m\""))
        #expect(buffer.text.contains("\\u{202e}"))
    }

    @Test("the store keeps every text field of an activity safe to show")
    func store() throws {
        var store = ActivityStore()
        var last: ActivityState?
        for event in HostileWire.events().dropLast() {
            for update in store.updates(applying: event) { last = update.handle.flatMap { store[$0] } ?? last }
        }
        let activity = try #require(last)
        #expect(activity.unit == "files")
        #expect(activity.title == "Copy")
        #expect(activity.attrs == ["k": .string("v")])
        for event in HostileWire.events().suffix(1) {
            for update in store.updates(applying: event) { last = update.handle.flatMap { store[$0] } }
        }
        #expect(last?.error == "err")
        #expect(last?.message == "m")
    }

    @Test("the overlay: label, message and failure")
    func overlay() {
        var model = OverlayModel()
        var frames = ""
        for (index, event) in HostileWire.events().enumerated() {
            _ = model.reduce(.event(event), at: index * 400)
            _ = model.reduce(.tick, at: index * 400 + 200)
            frames += OverlayTerminalFrame(state: model.state, columns: 60, rows: 12).render()
        }
        #expect(frames.contains("Copy"))
        let withoutOwn = frames.replacing(/\u{1B}\[[0-9;?]*[A-Za-z]/, with: "")
        #expect(HostileWire.problems(in: withoutOwn, ownEscapes: false).isEmpty, "\(frames.debugDescription)")
    }
}
