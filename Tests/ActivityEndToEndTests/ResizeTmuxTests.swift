import Foundation
import TestSupport
import Testing

/// The live display while a person resizes the window: tmux reflows what is on its screen, so
/// each resize changes the rows the live region takes; the redraw must still start at the
/// region's top, leave no rows of an older frame, and lose no permanent line.
///
/// The screen is full when the display starts, as in a terminal that has been in use: tmux keeps
/// the cursor on its row when a shrink makes the lines above it taller, and pushes the top rows
/// into the scrollback, where no redraw can reach them. Here those are old lines of the shell.
/// The checks read the scrollback too.
@Suite("The live display across resizes (tmux)", .serialized)
struct ResizeTmuxTests {
    static var available: Bool {
        TmuxPane.isInstalled
    }

    /// Words of the permanent lines the producer writes after each resize.
    static let words = "the quick brown fox jumps over the lazy dog while the build keeps going"

    /// A producer of three wide running rows that writes a warning each time the test opens a
    /// gate (`step1`…), and ends them all at `step4`.
    func producer(in pane: TmuxPane) throws -> String {
        func wait(_ name: String) -> String {
            "i=0; while [ ! -e '\(pane.folder.url.appendingPathComponent(name).path)' ] && [ $i -lt 600 ]; "
                + "do sleep 0.05; i=$((i+1)); done"
        }
        func event(_ json: String) -> String { "echo '\(json)'" }
        func begin(_ id: String, _ title: String, _ message: String) -> String {
            event(#"{"v":1,"type":"begin","id":"\#(id)","title":"\#(title)","total":100,"message":"\#(message)"}"#)
        }
        func warning(_ marker: String) -> String {
            event(#"{"v":1,"type":"log","level":"warning","message":"\#(marker) marker: \#(Self.words)"}"#)
        }
        var lines = [
            begin("a", "Rendering the documentation", "Sources/ActivityRendering/Renderers/TerminalRenderer.swift"),
            begin("b", "Indexing every symbol", "Sources/ActivityTerminal/TerminalCapabilities.swift"),
            begin("c", "Compiling the test targets", "Tests/ActivityEndToEndTests/ResizeTmuxTests.swift"),
            event(#"{"v":1,"type":"progress","id":"a","completed":40}"#),
            event(#"{"v":1,"type":"progress","id":"b","completed":75}"#),
            event(#"{"v":1,"type":"progress","id":"c","completed":5}"#),
        ]
        for (step, marker) in [(1, "first"), (2, "second"), (3, "third")] {
            lines.append(wait("step\(step)"))
            lines.append(warning(marker))
        }
        lines.append(wait("step4"))
        for id in ["a", "b", "c"] { lines.append(event(#"{"v":1,"type":"end","id":"\#(id)","status":"success"}"#)) }
        let script = try pane.folder.file("producer.sh", contents: lines.joined(separator: "\n") + "\n")
        return script.path
    }

    func open(_ pane: TmuxPane, _ name: String) {
        _ = FileManager.default.createFile(atPath: pane.folder.url.appendingPathComponent(name).path, contents: nil)
    }

    /// Waits until a frame drawn at `width` is on the screen: tmux narrows its screen at once but
    /// tells the program a moment later, so the first frames after a resize may be drawn at the
    /// old width, cut at the edge (a row as wide as the screen).
    func waitForFrame(in pane: TmuxPane, width: Int) throws -> Bool {
        try pane.screen(when: { screen in
            let rows = screen.split(separator: "\n")
            let drawn = rows.contains { $0.contains("Rendering") }
            let region = rows.filter {
                ["running ·", "Rendering", "Indexing", "Compiling"].contains(where: $0.contains)
            }
            return drawn && region.allSatisfy({ $0.count < width })
        }) != nil
    }

    /// What must hold on every screen: one header, one row per running activity, each warning
    /// shown so far exactly once.
    func expectNoDebris(_ screen: String, warnings: [String], running: Bool = true, _ stage: String) {
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
        func count(_ text: String) -> Int { rows.filter { $0.contains(text) }.count }
        #expect(count("running ·") == (running ? 1 : 0), "\(stage): header rows\n\(screen)")
        for title in ["Rendering", "Indexing", "Compiling"] where running {
            #expect(count(title) == 1, "\(stage): rows of \(title)\n\(screen)")
        }
        for marker in warnings {
            #expect(count("\(marker) marker") == 1, "\(stage): the \(marker) warning\n\(screen)")
        }
    }

    /// Every word of the warning drawn at the current width is whole on some row.
    func expectWholeWords(_ screen: String, marker: String, _ stage: String) {
        let rows = screen.split(separator: "\n")
        guard let start = rows.firstIndex(where: { $0.contains("\(marker) marker") }) else {
            Issue.record("\(stage): no \(marker) warning\n\(screen)")
            return
        }
        // The warning and its continuation rows, indented by two spaces.
        var text = String(rows[start])
        var next = start + 1
        while next < rows.count, rows[next].hasPrefix("  "), !rows[next].contains("✔") {
            text += " " + rows[next]
            next += 1
        }
        let shown = text.split(separator: " ").map(String.init)
        for word in Self.words.split(separator: " ") {
            #expect(shown.contains(String(word)), "\(stage): \"\(word)\" is broken\n\(screen)")
        }
    }

    @Test("100 → 60 → 40 → 100 columns: no rows of older frames, no permanent line lost", .enabled(if: available))
    func shrinkAndGrow() throws {
        let pane = try TmuxPane(width: 100, height: 30)
        try pane.type("seq 1 40; sh '\(try producer(in: pane))' | activity render; echo FIN''ISHED")
        #expect(try pane.waitFor("3 running"))
        var warnings: [String] = []
        for (step, (width, marker)) in [(60, "first"), (40, "second"), (100, "third")].enumerated() {
            try pane.resize(width: width, height: 30)
            #expect(try waitForFrame(in: pane, width: width))
            open(pane, "step\(step + 1)")
            warnings.append(marker)
            #expect(try pane.waitFor("\(marker) marker"))
            expectNoDebris(try pane.transcript(), warnings: warnings, "\(width) columns")
        }
        open(pane, "step4")
        #expect(try pane.waitFor("FINISHED"))
        expectNoDebris(try pane.transcript(), warnings: warnings, running: false, "the end")
        #expect(pane.cursorVisible)
    }

    @Test("at 50 columns, then 36: whole words in permanent lines, no debris", .enabled(if: available))
    func narrow() throws {
        let pane = try TmuxPane(width: 50, height: 30)
        try pane.type("seq 1 40; sh '\(try producer(in: pane))' | activity render; echo FIN''ISHED")
        #expect(try pane.waitFor("3 running"))
        open(pane, "step1")
        #expect(try pane.waitFor("first marker"))
        var screen = try pane.transcript()
        expectNoDebris(screen, warnings: ["first"], "50 columns")
        expectWholeWords(screen, marker: "first", "50 columns")
        try pane.resize(width: 36, height: 30)
        #expect(try waitForFrame(in: pane, width: 36))
        open(pane, "step2")
        #expect(try pane.waitFor("second marker"))
        screen = try pane.transcript()
        expectNoDebris(screen, warnings: ["first", "second"], "36 columns")
        expectWholeWords(screen, marker: "second", "36 columns")
        open(pane, "step3")
        open(pane, "step4")
        #expect(try pane.waitFor("FINISHED"))
        screen = try pane.transcript()
        expectNoDebris(screen, warnings: ["first", "second", "third"], running: false, "the end")
        expectWholeWords(screen, marker: "third", "the end")
    }
}
