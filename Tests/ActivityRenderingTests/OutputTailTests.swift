import ActivityRendering
import ActivityWire
import Testing

@Suite("Terminal renderer, each activity's output tail")
struct OutputTailTests {
    func verify(_ harness: TerminalHarness, golden name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(harness.frameProblems.isEmpty, "\(harness.frameProblems)", sourceLocation: sourceLocation)
        Golden.check(harness.transcript, named: name, sourceLocation: sourceLocation)
    }

    /// The screen as text, one line per row, without trailing blanks.
    func text(_ h: TerminalHarness) -> String {
        h.screen.grid.map { String($0.joined().reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
    }

    @Test("the live region shows the newest lines of output under the activity they belong to")
    func liveTail() {
        let h = TerminalHarness(columns: 60, rows: 12)
        h.send(E.begin("b", "Build", at: 0), E.begin("t", "Test", at: 0))
        h.renderer.outputOwner = E.id("b")
        h.passthrough("cc -c a.c")
        h.passthrough("cc -c b.c")
        h.send(E.log("test 1 ok", id: "t", at: 1))
        h.passthrough("cc -c c.c with a line far too long to fit in sixty columns of terminal")
        h.frame(at: 1.5, "two activities, each with its tail")
        h.send(E.end("t", at: 2))
        h.frame(at: 2.1, "test ended: its tail goes with it")
        let screen = text(h)
        #expect(screen.contains("  │ cc -c b.c"))
        #expect(!screen.contains("│ test 1 ok"))
        h.finish(at: 3)
        verify(h, golden: "tail-live.txt")
    }

    @Test("a failure is followed by its last 20 lines, and the summary by its last 3")
    func failureTail() {
        let h = TerminalHarness(columns: 60, rows: 40)
        h.send(E.begin("r", "make all", at: 0))
        h.renderer.outputOwner = E.id("r")
        for index in 1...25 { h.passthrough("line \(index)") }
        h.send(E.begin("x", "Lint", at: 1), E.end("x", at: 2))
        h.send(E.end("r", .failure, error: "exit status 2", at: 3))
        h.finish(at: 3)
        let screen = text(h)
        #expect(screen.contains("│ line 6\n"))
        #expect(!screen.contains("│ line 5\n"))
        #expect(screen.contains("  ✖ make all  exit status 2\n    │ line 23\n    │ line 24\n    │ line 25"))
        verify(h, golden: "tail-failure.txt")
    }

    @Test("output to a file: a chunk of many lines leaves its last 20 in the tail, whatever came before")
    func unshownChunks() {
        let display = BufferOutput()
        let file = BufferOutput()
        let renderer = TerminalRenderer(
            output: display,
            configuration: .init(
                mode: .plain, style: TerminalStyle(unicode: true, color: false),
                size: TerminalSize(columns: 60, rows: 24), displayIsTerminal: false, startTime: 0),
            passthrough: [.stdout: .output(file, sanitize: false, sharesTerminal: false)])
        var store = ActivityStore()
        func send(_ event: ActivityEvent) {
            var updates: [ActivityUpdate] = []
            _ = store.apply(event, line: 0) { updates.append($0) }
            for update in updates { renderer.render(update, in: store) }
        }
        send(E.begin("r", "make all", at: 0))
        renderer.outputOwner = E.id("r")
        // A line cut by the read, then one read with 100 lines: only lines 81 to 100 can stay.
        renderer.passthrough(Array("line 0 starts here, ".utf8), to: .stdout, in: store)
        let chunk = (1...100).map { "line \($0)\n" }.joined()
        renderer.passthrough(Array(("and ends here\n" + chunk).utf8), to: .stdout, in: store)
        renderer.passthrough(Array("line 101 without its newline yet".utf8), to: .stdout, in: store)
        send(E.end("r", .failure, error: "exit status 2", at: 1))
        let shown = String(decoding: display.bytes, as: UTF8.self)
        let tail = shown.split(separator: "\n").filter { $0.contains("│ ") }.map { $0.split(separator: "│ ")[1] }
        #expect(tail == (81...100).map { "line \($0)"[...] }, "\(shown)")
        #expect(String(decoding: file.bytes, as: UTF8.self).hasSuffix("line 100\nline 101 without its newline yet"))
        #expect(TerminalRenderer.startOfNewestLines(Array("a\nb\nc\n".utf8), count: 2) == 2)
        #expect(TerminalRenderer.startOfNewestLines(Array("a\nb\n".utf8), count: 2) == 0)
    }

    @Test("a tail keeps text in any encoding, not a binary file's bytes")
    func binaryLines() {
        #expect(!TerminalRenderer.looksBinary(Array("error: no rule to make target".utf8)))
        #expect(!TerminalRenderer.looksBinary(Array("Fehler: ung".utf8) + [0xFC] + Array("ltige Eingabe".utf8)))
        #expect(!TerminalRenderer.looksBinary(Array("naïve café, 日本語".utf8)))
        #expect(TerminalRenderer.looksBinary(Array("raw".utf8) + [0, 0xFF]))
        #expect(TerminalRenderer.looksBinary([0x8F, 0xE3, 0x41, 0xC7, 0xFE, 0x9A, 0x42, 0xF5, 0x80, 0x43]))
    }

    @Test("lines that are the last thing on the screen are not printed again with the failure")
    func noRepeat() {
        let h = TerminalHarness(columns: 60, rows: 12)
        h.send(E.begin("r", "make", at: 0))
        h.renderer.outputOwner = E.id("r")
        h.passthrough("error: no rule to make target 'all'")
        h.frame(at: 0.5, "the line is right above the region")
        #expect(!text(h).contains("│ error"))
        h.send(E.end("r", .failure, error: "exit status 2", at: 1))
        h.finish(at: 1)
        #expect(text(h).split(separator: "\n").filter { $0.contains("no rule to make") }.count == 1)
    }

    @Test("log events belong to their activity; plain mode prints the tail with the failure")
    func plainLogs() {
        let h = TerminalHarness(columns: 60, rows: 12, mode: .plain)
        h.send(
            E.begin("a", "Fetch", at: 0), E.begin("b", "Unpack", at: 0),
            E.log("mirror 1 timed out", id: "a", level: .warning, at: 1),
            E.log("unpacking", id: "b", at: 1.5),
            E.end("a", .failure, error: "no mirror left", at: 2), E.end("b", at: 2.5))
        h.finish(at: 3)
        let output = String(decoding: h.buffer.bytes, as: UTF8.self)
        #expect(output.contains("✖ Fetch  2.0s  no mirror left\n[   2.0s]   │ mirror 1 timed out\n"))
        #expect(!output.contains("│ unpacking"))
    }

    @Test("memory stays bounded: long lines are cut, activities past the limit give way")
    func bounded() {
        let h = TerminalHarness(columns: 60, rows: 12, mode: .plain)
        for index in 0..<100 { h.send(E.begin("a\(index)", "Step \(index)", at: 0)) }
        for index in 0..<100 {
            h.send(E.log(String(repeating: "x", count: 10_000), id: "a\(index)", at: 1))
        }
        h.send(E.end("a0", .failure, at: 2), E.end("a99", .failure, at: 2))
        let output = String(decoding: h.buffer.bytes, as: UTF8.self)
        let tailLines = output.split(separator: "\n").filter { $0.contains("│ x") }
        #expect(tailLines.count == 1)
        #expect(tailLines.allSatisfy { $0.count < 400 })
    }
}
