import ActivityRendering
import ActivityWire
import Testing

@Suite("Terminal renderer, TTY frames (golden)")
struct TerminalFrameTests {
    /// Checks what every frame test must hold, then compares the transcript with its golden file.
    func verify(_ harness: TerminalHarness, golden name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(harness.frameProblems.isEmpty, "\(harness.frameProblems)", sourceLocation: sourceLocation)
        #expect(!harness.screen.wrapped, "a line wrapped", sourceLocation: sourceLocation)
        #expect(harness.screen.unexpected.isEmpty, "\(harness.screen.unexpected)", sourceLocation: sourceLocation)
        #expect(!harness.screen.synchronized, "synchronized output left on", sourceLocation: sourceLocation)
        Golden.check(harness.transcript, named: name, sourceLocation: sourceLocation)
    }

    @Test("one bar: percent, counts, rate, ETA, elapsed, then a ✔ line")
    func oneBar() {
        let h = TerminalHarness(columns: 80, rows: 10)
        h.send(E.begin("dl", "Downloading", total: 120, unit: "files", at: 0))
        h.frame(at: 0.1, "begun")
        for step in 1...30 { h.send(E.progress("dl", Double(step), at: Double(step) * 0.1)) }
        h.frame(at: 3.0, "a quarter")
        h.send(E.progress("dl", 90, message: "mirror 2", at: 9))
        h.frame(at: 9.02, "three quarters")
        h.send(E.end("dl", at: 12.5))
        h.frame(at: 12.55, "ended")
        h.finish(at: 12.6)
        #expect(h.screen.cursorVisible)
        verify(h, golden: "one-bar.txt")
    }

    @Test("all of the total done: no ETA, not even the one shown a moment before")
    func noETAWhenDone() {
        for mode in [TerminalRenderer.Mode.tty, .plain] {
            let h = TerminalHarness(columns: 80, rows: 10, mode: mode)
            h.send(E.begin("c", "Copying", total: 5, unit: "files", at: 0))
            // A second apart: plain mode prints a line for each.
            for step in 1...4 { h.send(E.progress("c", Double(step), at: Double(step) * 1.1)) }
            h.frame(at: 4.5, "four of five")
            h.send(E.progress("c", 5, at: 5.6))
            h.frame(at: 5.7, "five of five")
            let lastRow = h.screen.picture.split(separator: "\n").last { $0.contains("5/5") }
            #expect(lastRow.map { !$0.contains("ETA") } ?? false, "\(mode): \(h.screen.picture)")
        }
    }

    @Test("an indeterminate activity shows a spinner that turns with the clock")
    func spinner() {
        let h = TerminalHarness(columns: 60, rows: 6)
        h.send(E.begin("s", "Resolving packages", message: "contacting registry", at: 0))
        for frame in 0..<4 { h.frame(at: 0.08 * Double(frame), "t=\(frame)") }
        h.send(E.progress("s", 12, at: 1))
        h.frame(at: 1.5, "with a count")
        h.finish(at: 2)
        verify(h, golden: "spinner.txt")
    }

    @Test("a nested tree is indented under a header; children end before the parent")
    func nestedTree() {
        let h = TerminalHarness(columns: 80, rows: 12)
        h.send(
            E.begin("b", "Build", at: 0),
            E.begin("b.c", "Compile", parent: "b", total: 40, unit: "files", at: 0.5),
            E.begin("b.c.1", "main.swift", parent: "b.c", at: 1),
            E.begin("b.l", "Link", parent: "b", at: 1.2),
            E.begin("t", "Test", total: 10, at: 1.5),
            E.progress("b.c", 10, at: 2)
        )
        h.frame(at: 2, "running")
        h.send(E.end("b.c.1", at: 2.5), E.end("b.c", at: 3), E.end("b.l", at: 3.2))
        h.frame(at: 3.3, "children done")
        h.send(E.end("b", at: 4), E.end("t", .skipped, at: 4.1))
        h.finish(at: 4.2)
        verify(h, golden: "nested-tree.txt")
    }

    @Test("200 activities in 24 rows: capped at rows − 1 with +N more")
    func manyActivities() {
        let h = TerminalHarness(columns: 70, rows: 24)
        for index in 0..<200 {
            h.send(E.begin("a\(index)", "Task \(index)", total: 100, at: Double(index) * 0.01))
        }
        h.frame(at: 2, "200 running")
        #expect(h.renderer.configuration.size.rows == 24)
        let liveRows = h.screen.grid.filter { $0.joined().contains("Task") || $0.joined().contains("more") }
        #expect(liveRows.count <= 23)
        for index in 0..<190 { h.send(E.end("a\(index)", at: 3)) }
        h.frame(at: 3.1, "10 left")
        h.finish(at: 3.2)
        verify(h, golden: "many-activities.txt")
    }

    @Test("CJK and emoji titles are measured by display width and cut at the right edge")
    func wideCharacters() {
        let h = TerminalHarness(columns: 40, rows: 8)
        h.send(
            E.begin("cjk", "日本語のファイルをダウンロードしています", total: 10, at: 0),
            E.begin("emoji", "📦📦📦 packing 🚀 rockets for launch", at: 0),
            E.begin("mix", "中文标题", total: 4, message: "進行中のメッセージがとても長い", at: 0)
        )
        h.frame(at: 1, "wide")
        for row in h.screen.grid {
            #expect(row.joined().count <= 40)
        }
        h.finish(at: 2)
        verify(h, golden: "wide-characters.txt")
    }

    @Test("a 20-column terminal keeps the title and drops the rest")
    func narrow() {
        let h = TerminalHarness(columns: 20, rows: 6)
        h.send(
            E.begin("a", "Downloading assets", total: 100, unit: "bytes", at: 0),
            E.begin("b", "Go", total: 10, at: 0),
            E.progress("a", 50, at: 1), E.progress("b", 5, at: 1)
        )
        h.frame(at: 1.5, "narrow")
        h.send(E.end("a", .failure, error: "connection reset by peer", at: 2))
        h.finish(at: 2.5)
        verify(h, golden: "narrow.txt")
    }

    @Test("bytes are shown in KiB, MiB and GiB with a byte rate")
    func bytes() {
        let h = TerminalHarness(columns: 100, rows: 8)
        h.send(E.begin("img", "disk.img", total: 4 * 1_073_741_824, unit: "bytes", at: 0))
        h.send(E.begin("small", "readme", total: 2048, unit: "bytes", at: 0))
        for second in 1...4 {
            h.send(E.progress("img", Double(second) * 100 * 1_048_576, at: Double(second)))
            h.send(E.progress("small", Double(second) * 300, at: Double(second)))
        }
        h.frame(at: 4, "bytes")
        h.finish(at: 5)
        verify(h, golden: "bytes.txt")
    }

    @Test("failure, cancel and abandoned lines carry durations and error messages")
    func outcomes() {
        let h = TerminalHarness(columns: 80, rows: 10)
        h.send(
            E.begin("a", "Fetch", at: 0), E.begin("b", "Compile", at: 0), E.begin("c", "Upload", at: 0),
            E.begin("c.1", "part 1", parent: "c", at: 0.5)
        )
        h.frame(at: 1, "running")
        h.send(E.end("b", .failure, error: "main.c:3: expected ';'", at: 1.25))
        h.send(E.end("c.1", .failure, error: "timeout", at: 2))
        h.send(E.end("c", .cancelled, message: "by the user", at: 2.5))
        h.frame(at: 2.6, "after failure and cancel")
        h.finish(at: 3)
        verify(h, golden: "outcomes.txt")
    }

    @Test("passed-through text and log events print above the live region")
    func passthrough() {
        let h = TerminalHarness(columns: 60, rows: 8)
        h.send(E.begin("a", "Build", total: 3, at: 0))
        h.frame(at: 0.5, "first frame")
        h.passthrough("cc -c main.c")
        h.passthrough("main.c:1: warning: unused variable")
        h.send(E.log("cache is cold", id: "a", level: .warning, at: 0.6), E.progress("a", 1, at: 0.7))
        h.frame(at: 0.8, "after output")
        h.passthrough("evil \u{1B}[2J\u{1B}]0;title\u{07}\r✔ forged")
        h.frame(at: 0.9, "sanitized")
        h.finish(at: 1)
        #expect(!h.buffer.text.contains("\u{1B}]0;"))
        #expect(!h.buffer.text.contains("\u{1B}[2J"))
        verify(h, golden: "passthrough.txt")
    }

    @Test("a resize redraws the live region to the new width")
    func resize() {
        let h = TerminalHarness(columns: 80, rows: 10)
        h.send(
            E.begin("a", "Rendering the documentation", total: 50, at: 0),
            E.begin("b", "Indexing symbols", total: 200, message: "Sources/ActivityRendering", at: 0),
            E.progress("a", 20, at: 2), E.progress("b", 150, at: 2)
        )
        h.frame(at: 2, "80 columns")
        h.resize(columns: 40, rows: 10)
        h.frame(at: 2.05, "40 columns")
        h.resize(columns: 100, rows: 6)
        h.frame(at: 2.1, "100 columns")
        h.finish(at: 3)
        verify(h, golden: "resize.txt")
    }

    @Test("colour and ASCII styles")
    func styles() {
        let colour = TerminalHarness(columns: 60, rows: 6, color: true)
        colour.send(E.begin("a", "Colour", total: 4, at: 0), E.progress("a", 2, at: 1))
        colour.frame(at: 1, "colour")
        #expect(colour.buffer.text.contains("\u{1B}[36m"))
        colour.send(E.end("a", .failure, error: "boom", at: 2))
        colour.finish(at: 2)
        #expect(colour.buffer.text.contains("\u{1B}[31m✖\u{1B}[0m"))

        let ascii = TerminalHarness(columns: 60, rows: 6, unicode: false)
        ascii.send(E.begin("a", "ASCII", total: 4, at: 0), E.progress("a", 2, at: 1))
        ascii.frame(at: 1, "ascii")
        ascii.send(E.end("a", at: 2))
        ascii.finish(at: 2)
        #expect(ascii.buffer.bytes.allSatisfy { $0 < 0x80 })
        verify(ascii, golden: "ascii.txt")
    }

    @Test("no frame is written when nothing changed, and the cursor is hidden only while live")
    func quiet() {
        let h = TerminalHarness(columns: 60, rows: 6)
        h.frame(at: 0, "empty")
        #expect(h.buffer.writes.isEmpty)
        h.send(E.begin("a", "Wait", total: 10, at: 0))
        h.frame(at: 0.5, "one")
        let writes = h.buffer.writes.count
        #expect(!h.screen.cursorVisible)
        h.renderer.tick(h.store, now: 0.5)
        #expect(h.buffer.writes.count == writes)
        h.send(E.end("a", at: 1))
        h.frame(at: 1.05, "ended")
        #expect(h.screen.cursorVisible)
    }
}
