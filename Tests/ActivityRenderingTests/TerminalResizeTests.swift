import ActivityRendering
import Foundation
import TestSupport
import Testing

/// What the renderer writes when the terminal gets narrower, and what a terminal that does not
/// reflow (pyte, like xterm) then shows.
@Suite("Resizes")
struct TerminalResizeTests {
    /// Two activities whose rows fill a 100-column line, drawn at 100 columns at time 1.
    func wideFrame() -> TerminalHarness {
        let h = TerminalHarness(columns: 100, rows: 12)
        h.send(
            E.begin(
                "a", "Rendering the documentation", total: 100, message: "Sources/ActivityRendering/Renderers", at: 0),
            E.begin("b", "Indexing every symbol", total: 100, message: "Sources/ActivityTerminal/Capabilities", at: 0),
            E.progress("a", 40, at: 1), E.progress("b", 75, at: 1))
        h.frame(at: 1, "100 columns")
        return h
    }

    @Test("a shrink: up by the rows the old lines take when reflowed, erase, redraw without autowrap")
    func shrinkBytes() {
        let h = wideFrame()
        let widths = h.buffer.writes.count
        h.resize(columns: 50, rows: 12)
        h.frame(at: 1.05, "50 columns")
        let frame = String(decoding: h.buffer.writes[widths], as: UTF8.self)
        // Header (short: one row) and two rows of 99 columns (two rows each at 50): up 5.
        let expected =
            "\u{1B}[?2026h\r\u{1B}[5A\u{1B}[?7l"
            + "\u{1B}[K⠸ 2 running · 0/2 done · 1.1s\r\n"
            + "\u{1B}[K⠸ Rendering the do…  ████░░░░░░   40%  1.1s\r\n"
            + "\u{1B}[K⠸ Indexing every s…  ███████▌░░   75%  1.1s\r\n"
            + "\u{1B}[?7h\u{1B}[J\u{1B}[?2026l"
        #expect(frame == expected)
        #expect(h.frameProblems.isEmpty)
    }

    @Test(
        "a terminal that does not reflow shows exactly the new frame after a shrink",
        .enabled(if: PyteScreen.isAvailable, "pyte is not installed (pip install pyte)"))
    func nonReflowingTerminal() throws {
        let h = wideFrame()
        let before = h.buffer.writes.flatMap { $0 }
        let drawn = h.buffer.writes.count
        h.resize(columns: 50, rows: 12)
        h.frame(at: 1.05, "50 columns")
        let after = h.buffer.writes[drawn...].flatMap { $0 }
        let screen = try PyteScreen.rows(after: before, columns: 100, rows: 12, resizedTo: 50, then: Array(after))
        let expected = [
            "⠸ 2 running · 0/2 done · 1.1s",
            "⠸ Rendering the do…  ████░░░░░░   40%  1.1s",
            "⠸ Indexing every s…  ███████▌░░   75%  1.1s",
        ]
        #expect(Array(screen.prefix(3)) == expected)
        let rest = screen.dropFirst(3)
        #expect(rest.allSatisfy { $0.isEmpty }, "rows left from the old frame:\n\(screen.joined(separator: "\n"))")
    }
}
