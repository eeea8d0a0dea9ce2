import ActivityRendering
import ActivityWire
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A renderer as the documentation writes one: it sees normalized events and the store. The
/// test reads its fields only after `finish()`, when the session no longer calls it.
final class FailureCollector: ActivityRenderer, @unchecked Sendable {
    var failures: [String] = []
    var ticks = 0
    var finished = 0
    var preferredTickInterval: Double? { 0.05 }

    func render(_ update: ActivityUpdate, in store: ActivityStore) {
        guard update.kind == .end, let handle = update.handle, let activity = store[handle],
            activity.status == .failure
        else { return }
        failures.append(TextSanitizer.display(activity.title))
    }

    func tick(_ store: ActivityStore, now: Double) { ticks += 1 }

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
        // The timer ticks at 20 Hz; give it a few beats.
        for _ in 0..<15 { usleepTicks() }
        session.finish()
        session.finish()
        #expect(collector.failures == ["Compile"])
        #expect(collector.finished == 1)
        #expect(collector.ticks > 0)
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
        #expect(fast.ticks == 40)
        #expect(slow.ticks == 2)
    }
}

func usleepTicks() {
    #if canImport(Glibc)
        _ = Glibc.usleep(10_000)
    #endif
}
