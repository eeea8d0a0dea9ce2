import ActivityOverlayTerminal
import ActivityRendering
import ActivityTerminal
import ActivityWire
import Testing

@testable import ActivityOverlay

@Suite("Overlay terminal frame")
struct OverlayTerminalFrameTests {
    func state(_ script: [(Int, OverlayInput)], at time: Int) -> OverlayState {
        VirtualClockRun(script).state(at: time)
    }

    @Test("a centred box with a bar, the label, the message and Esc to cancel")
    func progressBox() {
        let state = state(
            [
                (0, E.begin("a", "Signing in", total: 4, cancellable: true)),
                (100, .event(.progress(.init(id: E.id("a"), completed: 1, message: "Contacting the server")))),
            ], at: 600)
        let frame = OverlayTerminalFrame(state: state, columns: 40, rows: 11)
        #expect(
            frame.lines == [
                "                                        ",
                "     ╭────────────────────────────╮     ",
                "     │                            │     ",
                "     │  ◆ Signing in              │     ",
                "     │  ████░░░░░░░░░░░░░░░  25%  │     ",
                "     │  Contacting the server     │     ",
                "     │             Esc to cancel  │     ",
                "     │                            │     ",
                "     ╰────────────────────────────╯     ",
                "                                        ",
                "                                        ",
            ])
    }

    @Test("ASCII fallback, a spinner frame chosen by the tick, and no room for blank lines")
    func asciiSpinner() {
        let state = state([(0, E.begin("a", "Téléchargement"))], at: 600)
        let frame = OverlayTerminalFrame(state: state, columns: 34, rows: 3, unicode: false, color: false, tick: 2)
        #expect(
            frame.lines == [
                "  +----------------------------+  ",
                "  |  - T?l?chargement          |  ",
                "  +----------------------------+  ",
            ])
    }

    @Test("width-aware: wide characters count two cells and long text is cut")
    func wideText() {
        let state = state([(0, E.begin("a", "データを同期しています。しばらくお待ちください、もう少しです"))], at: 600)
        let frame = OverlayTerminalFrame(state: state, columns: 30, rows: 5)
        for line in frame.lines { #expect(DisplayWidth.of(line) == 30, "\(line)") }
        #expect(frame.lines[2].contains("…"))
    }

    @Test("success and failure marks, Cancelling after a tap")
    func marks() {
        let failed = state([(0, E.begin("a", "Saving")), (700, E.end("a", .failure, error: "Disk full"))], at: 800)
        let lines = OverlayTerminalFrame(state: failed, columns: 40, rows: 7).lines
        #expect(lines.contains { $0.contains("✖ Saving") })
        #expect(lines.contains { $0.contains("Disk full") })
        let cancelling = state([(0, E.begin("a", "Saving", cancellable: true)), (600, .cancelTapped)], at: 700)
        #expect(
            OverlayTerminalFrame(state: cancelling, columns: 40, rows: 9).lines.contains { $0.contains("Cancelling…") })
    }

    @Test("render: synchronized output, a grey background when dimming, nothing when hidden")
    func render() {
        let dimmed = state([(0, E.begin("a", "Work", blocking: .dim))], at: 600)
        let bytes = OverlayTerminalFrame(state: dimmed, columns: 20, rows: 5).render()
        #expect(bytes.hasPrefix("\u{1B}[?2026h"))
        #expect(bytes.hasSuffix("\u{1B}[0m\u{1B}[?2026l"))
        #expect(bytes.contains("48;5;236m"))
        #expect(!OverlayTerminalFrame(state: dimmed, columns: 20, rows: 5, color: false).render().contains("48;5"))
        let hidden = state([(0, E.begin("a", "Work"))], at: 100)
        #expect(OverlayTerminalFrame(state: hidden, columns: 20, rows: 5).render().isEmpty)
        #expect(OverlayTerminalFrame(state: hidden, columns: 20, rows: 5).lines.isEmpty)
    }

    @Test(
        "tiny terminals never crash and never overflow", arguments: [(0, 0), (1, 1), (7, 2), (8, 1), (9, 2), (12, 4)])
    func tiny(size: (Int, Int)) {
        let state = state([(0, E.begin("a", "Signing in", total: 2, cancellable: true))], at: 600)
        let frame = OverlayTerminalFrame(state: state, columns: size.0, rows: size.1)
        #expect(frame.lines.count == size.1)
        for line in frame.lines { #expect(DisplayWidth.of(line) == size.0) }
        _ = frame.render()
    }
}
