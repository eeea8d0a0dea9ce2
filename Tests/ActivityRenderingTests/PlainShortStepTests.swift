import ActivityRendering
import ActivityWire
import Testing

/// Plain mode's lines for many short steps: a step that ends within a second of its begin, with
/// no line between, gets its end line alone (issue 30: a suite of 500,000 tests wrote a million
/// lines); `-q` keeps top-level steps and failures.
@Suite("Plain mode: short steps in one line each, and -q")
struct PlainShortStepTests {
    func lines(_ events: [ActivityEvent], verbosity: Verbosity = .normal) -> [String] {
        let buffer = BufferOutput()
        var configuration = TerminalRenderer.Configuration(mode: .plain, startTime: 0)
        configuration.verbosity = verbosity
        let terminal = TerminalRenderer(output: buffer, configuration: configuration)
        var store = ActivityStore()
        for event in events {
            for update in store.updates(applying: event) { terminal.render(update, in: store) }
        }
        terminal.finish(store, now: events.last?.timestamp ?? 0)
        return buffer.text.split(separator: "\n").map(String.init).filter { !$0.contains(" activities in ") }
    }

    /// A suite: its begin, three tests (the second 1.5 s long, the third failing), its end.
    static let suite: [ActivityEvent] = [
        E.begin("s", "Suite", at: 0),
        E.begin("t1", "test one", parent: "s", at: 0.1), E.end("t1", at: 0.2),
        E.begin("t2", "test two", parent: "s", at: 0.3), E.end("t2", at: 1.8),
        E.begin("t3", "test three", parent: "s", at: 1.9), E.end("t3", .failure, at: 2.0),
        E.end("s", .failure, at: 2.1),
    ]

    @Test("a short step is one line, its end's; a longer one keeps its begin line")
    func shortStepsCollapse() {
        #expect(
            lines(Self.suite) == [
                "[   0.0s] ▶ Suite",
                "[   0.2s] ✔ Suite › test one  0.1s",
                "[   0.3s] ▶ Suite › test two",
                "[   1.8s] ✔ Suite › test two  1.5s",
                "[   2.0s] ✖ Suite › test three  0.1s",
                "[   2.1s] ✖ Suite  2.1s",
                "[   2.1s] failures:",
                "[   2.1s]   ✖ Suite › test three",
                "[   2.1s]   ✖ Suite",
            ])
    }

    @Test("a line between a begin and its end keeps the begin line, before it")
    func lineBetweenKeepsTheBegin() {
        let events = [
            E.begin("a", "Fetch", at: 0), E.log("resolving", id: "a", at: 0.1), E.end("a", at: 0.2),
            E.begin("b", "Parent", at: 1), E.begin("c", "Child", parent: "b", at: 1.1), E.end("c", at: 1.2),
            E.end("b", at: 1.3),
        ]
        let shown = lines(events)
        #expect(
            shown.prefix(6) == [
                "[   0.0s] ▶ Fetch", "[   0.1s] Fetch: resolving", "[   0.2s] ✔ Fetch  0.2s",
                "[   1.0s] ▶ Parent", "[   1.2s] ✔ Parent › Child  0.1s", "[   1.3s] ✔ Parent  0.3s",
            ])
    }

    @Test("a begin held back is written at the end of the input, and when a later event's time shows it is due")
    func heldBeginIsWritten() {
        #expect(lines([E.begin("a", "Slow", at: 0)]).first == "[   0.0s] ▶ Slow")
        let later = lines([E.begin("a", "Slow", at: 0), E.begin("b", "Other", at: 5)])
        #expect(later.prefix(2) == ["[   0.0s] ▶ Slow", "[   5.0s] ▶ Other"])
    }

    @Test("a short step's one line says the size its begin line would have said")
    func collapsedLineKeepsTheSize() {
        let events = [E.begin("a", "Fetch", total: 10, unit: "files", at: 0), E.end("a", at: 0.5)]
        #expect(lines(events).first == "[   0.5s] ✔ Fetch (10 files)  0.5s")
    }

    @Test("-q keeps top-level steps and failures, not the other steps")
    func quietKeepsTopLevelAndFailures() {
        #expect(
            lines(Self.suite, verbosity: .quiet) == [
                "[   0.0s] ▶ Suite",
                "[   2.0s] ✖ Suite › test three  0.1s",
                "[   2.1s] ✖ Suite  2.1s",
                "[   2.1s] failures:",
                "[   2.1s]   ✖ Suite › test three",
                "[   2.1s]   ✖ Suite",
            ])
    }
}
