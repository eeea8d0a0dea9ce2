import ActivityRendering
import ActivityWire
import Foundation
import Testing

@Suite("Terminal renderer, the closing summary")
struct SummaryTests {
    /// A build of four top-level steps, one of which fails inside, over 20 seconds.
    func build(_ h: TerminalHarness) {
        h.send(
            E.begin("f", "Fetch sources", at: 0), E.end("f", at: 10),
            E.begin("b", "Build", at: 10), E.begin("b.c", "Compile", parent: "b", at: 10),
            E.end("b.c", .failure, error: "file12.c:40: undefined symbol 'main'", at: 14),
            E.end("b", .failure, error: "1 step failed", at: 15),
            E.begin("t", "Test", at: 15), E.end("t", .cancelled, at: 16),
            E.begin("u", "Upload", at: 16), E.end("u", at: 20)
        )
    }

    @Test("full (the default): the tally, the slowest top-level steps with their share, every failure with its path")
    func full() {
        let h = TerminalHarness(columns: 80, rows: 16)
        build(h)
        h.finish(at: 20)
        let text = h.screen.grid.map { $0.joined() }.joined(separator: "\n")
        #expect(text.contains("✔ Fetch sources  10.0s   50%"))
        #expect(text.contains("✖ Build           5.0s   25%"))
        #expect(text.contains("✖ Build › Compile  file12.c:40: undefined symbol 'main'"))
        Golden.check(h.transcript, named: "summary-full.txt")
    }

    @Test("a failure's tail leaves out the lines its error already says")
    func tailWithoutTheError() {
        let h = TerminalHarness(columns: 100, rows: 16, mode: .plain)
        let error = "curl: (22) The requested URL returned error: 404"
        h.send(
            E.begin("b", "Build", at: 0), E.begin("d", "Download", parent: "b", at: 0),
            E.log("connecting", id: "d", at: 0.1), E.log(error, id: "d", at: 0.2),
            E.end("d", .failure, error: error + " (exit status 22)", at: 0.3), E.end("b", at: 0.4))
        h.finish(at: 1)
        let text = String(decoding: h.buffer.bytes, as: UTF8.self)
        let summary = text.components(separatedBy: "failures:").last ?? ""
        #expect(summary.contains("│ connecting"), "\(text)")
        #expect(summary.components(separatedBy: "error: 404").count == 2, "said more than once:\n\(summary)")
    }

    @Test("plain mode has the same summary, each line with its time")
    func plain() {
        let h = TerminalHarness(columns: 80, rows: 16, mode: .plain)
        build(h)
        h.finish(at: 20)
        let text = String(decoding: h.buffer.bytes, as: UTF8.self)
        #expect(text.contains("slowest steps:"))
        #expect(text.contains("[  20.0s]   ✖ Build › Compile  file12.c:40: undefined symbol 'main'"))
        Golden.check(text, named: "summary-plain.txt")
    }

    @Test("short is the tally alone; off says nothing", arguments: [SummaryDetail.short, .off])
    func shorter(_ detail: SummaryDetail) {
        var configuration = TerminalRenderer.Configuration(
            mode: .tty, size: TerminalSize(columns: 80, rows: 16), displayIsTerminal: true, startTime: 0)
        configuration.summary = detail
        let h = TerminalHarness(configuration: configuration)
        build(h)
        h.finish(at: 20)
        let text = h.screen.grid.map { $0.joined() }.joined(separator: "\n")
        #expect(!text.contains("slowest"))
        #expect(!text.contains("failures:"))
        #expect(text.contains("5 activities in 20.0s") == (detail == .short))
    }

    @Test("only the first 20 failures are listed, then how many more")
    func manyFailures() {
        let h = TerminalHarness(columns: 60, rows: 40, verbosity: .quiet)
        for index in 0..<25 {
            h.send(E.begin("x\(index)", "step \(index)", at: Double(index)))
            h.send(E.end("x\(index)", .failure, error: "no", at: Double(index) + 0.5))
        }
        h.finish(at: 30)
        let text = (h.screen.scrollback + h.screen.grid.map { $0.joined() }).joined(separator: "\n")
        #expect(text.contains("… and 5 more"))
        #expect(text.contains("✖ step 19  no"))
        #expect(!text.contains("slowest"), "-q leaves the slowest steps out")
    }
}
