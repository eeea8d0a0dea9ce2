import ActivityRendering
import ActivityWire
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A renderer as the documentation writes one: it sees normalized events and the store. The
/// test reads its fields only after `finish()`, when the session no longer calls it, except
/// `ticks`, which it waits for while the session's timer thread counts them.
final class FailureCollector: ActivityRenderer, @unchecked Sendable {
    var failures: [String] = []
    /// Ticks come on the session's timer thread while the test reads them.
    let ticks = Atomic<Int>(0)
    var finished = 0
    var preferredTickInterval: Double? { 0.05 }

    func render(_ update: ActivityUpdate, in store: ActivityStore) {
        guard update.kind == .end, let handle = update.handle, let activity = store[handle],
            activity.status == .failure
        else { return }
        failures.append(TextSanitizer.display(activity.title))
    }

    func tick(_ store: ActivityStore, now: Double) { ticks.add(1, ordering: .relaxed) }

    func finish(_ store: ActivityStore, now: Double) { finished += 1 }
}

@Suite("Custom renderers and the multiplex")
struct CustomRendererTests {
    @Test("a session drives a renderer of the caller's own, with timer ticks")
    func customRenderer() {
        let collector = FailureCollector()
        let session = RenderSession(renderers: [collector, NoOpRenderer()])
        session.handle(E.begin("a", "Compile\u{1B}[2J", at: 1))
        session.handle(E.end("a", .failure, error: "boom", at: 2))
        // The timer ticks at 20 Hz: the first tick comes by itself.
        #expect(Poll.until { collector.ticks.load(ordering: .relaxed) > 0 })
        session.finish()
        session.finish()
        #expect(collector.failures == ["Compile"])
        #expect(collector.finished == 1)
    }

    @Test("a display of the caller's own draws with the options' log file, plugins' feed and problem counts")
    func customDisplayWithLogFile() throws {
        try withTemporaryDirectory { directory in
            let log = directory + "/build.log"
            let collector = FailureCollector()
            let session = try RenderSession(options: RenderOptions(mode: .tty, logFile: log)) { [collector] }
            #expect(session.mode == .auto)  // the caller's display, not a mode of the session's
            session.handle(E.begin("a", "Compile", at: 1))
            session.passthrough(Array("a line from the tool\n".utf8), to: .stdout)
            session.report(Diagnostic(line: 3, code: .invalidJSON, message: "not JSON"))
            session.handle(E.end("a", .failure, error: "boom", at: 2))
            session.finish()
            #expect(collector.failures == ["Compile"])
            #expect(collector.finished == 1)
            #expect(session.summary.diagnosticCount == 1)
            let text = readFile(log) ?? ""
            #expect(text.contains("begin id=a title=Compile"), "\(text)")
            #expect(text.contains("output stream=stdout text=\"a line from the tool\""), "\(text)")
            #expect(text.contains("end id=a title=Compile status=failure"), "\(text)")
        }
    }

    @Test("the display is made only once the log file is open: when it cannot be, nothing is made")
    func customDisplayNotMadeOnFailure() {
        var made = false
        #expect(throws: RenderError.self) {
            _ = try RenderSession(options: RenderOptions(logFile: "/nonexistent/dir/build.log")) {
                made = true
                return [NoOpRenderer()]
            }
        }
        #expect(!made)
    }

    @Test("the multiplex ticks each renderer at its own interval")
    func multiplexTicks() {
        final class Slow: ActivityRenderer {
            var ticks = 0
            var preferredTickInterval: Double? { 1 }
            func render(_ update: ActivityUpdate, in store: ActivityStore) {}
            func tick(_ store: ActivityStore, now: Double) { ticks += 1 }
        }
        let fast = FailureCollector()
        let slow = Slow()
        let multiplex = MultiplexRenderer([fast, slow, NoOpRenderer()])
        #expect(multiplex.preferredTickInterval == 0.05)
        let store = ActivityStore()
        for step in 0..<40 { multiplex.tick(store, now: Double(step) * 0.05) }
        #expect(fast.ticks.load(ordering: .relaxed) == 40)
        #expect(slow.ticks == 2)
    }

    @Test("a clock that goes back still ticks: a stream from the past, its first event after a tick")
    func multiplexTicksWhenTheClockGoesBack() {
        let renderer = FailureCollector()
        let multiplex = MultiplexRenderer([renderer])
        let store = ActivityStore()
        // The first tick on our clock; then the stream's, a year behind, from its first event on.
        multiplex.tick(store, now: 1_764_600_000)
        for step in 1...10 { multiplex.tick(store, now: 1_733_000_000 + Double(step) * 0.05) }
        #expect(renderer.ticks.load(ordering: .relaxed) == 11)
    }
}
