import ActivityOverlay
import ActivityWire
import Observation
import Synchronization
import TestSupport
import Testing

@Suite("OverlayController")
@MainActor
struct OverlayControllerTests {
    final class Recorder: Sendable {
        let cancels = Mutex<[[ActivityID]]>([])
        func record(_ ids: [ActivityID]) { cancels.withLock { $0.append(ids) } }
        var all: [[ActivityID]] { cancels.withLock { $0 } }
    }

    func event(_ input: OverlayInput) -> ActivityEvent {
        guard case .event(let event) = input else { fatalError("not an event") }
        return event
    }

    @Test("events from another thread are applied on the main actor and the timers drive the phases")
    func drivesTimers() async {
        let scheduler = ManualOverlayScheduler()
        let controller = OverlayController(configuration: .vectors, scheduler: scheduler)
        let begin = event(E.begin("a", "Signing in", blocking: .dim))
        await Task.detached { controller.send(begin) }.value
        #expect(controller.state.phase == .idle)  // not applied until the main actor runs it
        scheduler.runQueued()
        #expect(controller.state.phase == .pending)
        #expect(controller.state.blocksInput)
        #expect(scheduler.nextDeadline == 500)
        scheduler.advance(to: 499)
        #expect(!controller.state.isVisible)
        scheduler.advance(to: 500)
        #expect(controller.state.isVisible)
        #expect(controller.state.dims)
        scheduler.advance(to: 600)
        controller.send(event(E.end("a")))
        scheduler.runQueued()
        #expect(controller.state.phase == .holding)
        scheduler.advance(to: 999)
        #expect(controller.state.isVisible)
        scheduler.advance(to: 1000)
        #expect(controller.state.phase == .idle)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test("a superseded deadline never fires and leaves no timer behind")
    func supersededTimer() {
        let scheduler = ManualOverlayScheduler()
        let controller = OverlayController(configuration: .vectors, scheduler: scheduler)
        controller.apply(E.begin("a"))
        #expect(scheduler.scheduledCount == 1)
        scheduler.advance(to: 300)
        controller.apply(E.end("a"))
        #expect(controller.state.phase == .idle)
        #expect(scheduler.scheduledCount == 0)
        scheduler.advance(to: 5000)
        #expect(
            controller.state
                == { () -> OverlayState in
                    var model = OverlayModel(configuration: .vectors)
                    _ = model.reduce(E.begin("a"), at: 0)
                    _ = model.reduce(E.end("a"), at: 300)
                    _ = model.reduce(.tick, at: 5000)
                    return model.state
                }())
    }

    @Test("two cancel taps reach the cancel closure once")
    func cancelOnce() {
        let scheduler = ManualOverlayScheduler()
        let recorder = Recorder()
        let controller = OverlayController(configuration: .vectors, scheduler: scheduler) { recorder.record($0) }
        controller.apply(E.begin("a", cancellable: true))
        scheduler.advance(to: 600)
        controller.cancelTapped()
        controller.cancelTapped()
        #expect(recorder.all == [[E.id("a")]])
        #expect(controller.state.cancel == .requested)
    }

    @Test("announcements and haptics reach onEffect")
    func effects() {
        let scheduler = ManualOverlayScheduler()
        let controller = OverlayController(configuration: .vectors, scheduler: scheduler)
        var seen: [OverlayEffect] = []
        controller.onEffect = { seen.append($0) }
        controller.apply(E.begin("a", "Signing in"))
        scheduler.advance(to: 700)
        controller.apply(E.end("a", .failure, error: "Offline"))
        scheduler.advance(to: 10_000)
        #expect(seen == [.announce("Signing in"), .announce("Signing in: Offline"), .haptic(.failure)])
    }

    @Test("observers are told when the state changes, and only then")
    func observation() {
        let scheduler = ManualOverlayScheduler()
        let controller = OverlayController(configuration: .vectors, scheduler: scheduler)
        let changes = Mutex(0)
        func observe() {
            withObservationTracking {
                _ = controller.state
            } onChange: {
                changes.withLock { $0 += 1 }
            }
        }
        observe()
        controller.apply(E.begin("a"))
        #expect(changes.withLock { $0 } == 1)
        observe()
        controller.apply(.tick)  // nothing changed
        controller.apply(E.progress("ghost", 1))
        #expect(changes.withLock { $0 } == 1)
        scheduler.advance(to: 500)
        #expect(changes.withLock { $0 } == 2)
    }

    @Test("the continuous-clock scheduler runs a timer on the main actor")
    func continuousClock() async throws {
        let scheduler = ContinuousClockOverlayScheduler()
        var configuration = OverlayConfiguration()
        configuration.graceMilliseconds = 20
        let controller = OverlayController(configuration: configuration, scheduler: scheduler)
        controller.send(event(E.begin("a")))
        // Only a hang fails: in a full run on two cores the timer's task may wait minutes for a
        // thread, behind tests that block theirs.
        await Poll.until(timeout: 900) { controller.state.isVisible }
        #expect(controller.state.isVisible)
        #expect(scheduler.now() >= 20)
    }
}
