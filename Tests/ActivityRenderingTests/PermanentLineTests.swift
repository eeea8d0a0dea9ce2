import ActivityRendering
import ActivityWire
import Testing

/// Which finished activities leave a permanent line: the verbosity, and frames (`activity run`'s
/// own activity), under which the command's top-level activities count as top-level.
@Suite("Permanent lines: verbosity and frames")
struct PermanentLineTests {
    /// A run: the frame, a step that succeeds, one nested in it, one that fails.
    func run(_ verbosity: Verbosity, frame: Bool = true) -> String {
        let h = TerminalHarness(columns: 80, rows: 12, verbosity: verbosity)
        var attrs: [String: AttributeValue] = [:]
        if frame { attrs[ActivityEvent.Begin.frameAttribute] = .bool(true) }
        h.send(.begin(.init(id: E.id("run"), title: "make", attrs: attrs, timestamp: 0)))
        h.send(
            E.begin("compile", "Compile", parent: "run", at: 0), E.begin("file", "main.c", parent: "compile", at: 0),
            E.end("file", at: 1), E.end("compile", at: 2), E.begin("test", "Test", parent: "run", at: 2),
            E.end("test", .failure, error: "1 failed", at: 3), E.end("run", .failure, at: 3))
        h.finish(at: 3)
        return h.screen.picture
    }

    @Test("by default: the command's top-level steps and every failure, and the run itself")
    func normal() {
        let screen = run(.normal)
        #expect(screen.contains("✔ Compile"))
        #expect(!screen.contains("main.c"))
        #expect(screen.contains("✖ Test"))
        #expect(screen.contains("✖ make"))
    }

    @Test("without a frame, nested steps that succeed leave no line (as before)")
    func noFrame() {
        let screen = run(.normal, frame: false)
        #expect(!screen.contains("✔ Compile"))
        #expect(screen.contains("✖ make › Test"))
    }

    @Test("-v: every finished activity, nested ones by their path")
    func verbose() {
        let screen = run(.verbose)
        #expect(screen.contains("✔ make › Compile › main.c"))
        #expect(screen.contains("✔ Compile"))
    }

    @Test("-q: only failures, then the summary")
    func quiet() {
        let screen = run(.quiet)
        #expect(!screen.contains("✔"))
        #expect(screen.contains("✖ Test"))
    }

    @Test("-q: of the logs only errors get a line; a failure still shows the others in its tail")
    func quietLogs() {
        for mode in [TerminalRenderer.Mode.tty, .plain] {
            let h = TerminalHarness(columns: 80, rows: 16, mode: mode, verbosity: .quiet)
            h.send(
                E.begin("a", "Build", at: 0), E.log("an info line", id: "a", at: 0.1),
                E.log("a warning line", level: .warning, at: 0.2), E.log("an error line", level: .error, at: 0.3),
                E.begin("b", "Test", at: 0.4), E.log("why it failed", id: "b", level: .warning, at: 0.5),
                E.end("b", .failure, at: 0.6), E.end("a", at: 1))
            h.finish(at: 1)
            let screen = h.screen.picture
            #expect(!screen.contains("an info line") && !screen.contains("a warning line"), "\(mode): \(screen)")
            #expect(screen.contains("error: an error line"), "\(mode): \(screen)")
            #expect(screen.contains("│ why it failed"), "\(mode): \(screen)")
        }
    }
}
