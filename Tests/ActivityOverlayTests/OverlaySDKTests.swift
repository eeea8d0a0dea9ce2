import ActivityOverlay
import ActivityWire
import TestSupport
import Testing

@testable import ActivityReporting

@Suite("Overlay with the SDK in-process")
@MainActor
struct OverlaySDKTests {
    /// Runs the main actor's queued work until `condition` holds (bounded: the work is in-process).
    func settle(_ scheduler: ManualOverlayScheduler, until condition: () -> Bool) async throws {
        // A deadline, not a count of tries: in a busy test run the task under test may wait long
        // for a thread, and only a hang should fail here.
        let settled = await Poll.until(timeout: 900) {
            scheduler.runQueued()
            await Task.yield()
            return condition()
        }
        try #require(settled)
    }

    @Test("a cancel tap cancels the task running withActivity, and the overlay follows its end")
    func cancelReachesWithActivity() async throws {
        let scheduler = ManualOverlayScheduler()
        let controller = OverlayController(configuration: .vectors, scheduler: scheduler) { ids in
            for id in ids { ActivitySystem.cancel(id) }
        }
        let reporter = Reporter(sink: controller, parent: nil)
        let work = Task.detached {
            try await ActivitySystem.$taskReporter.withValue(reporter) {
                try await withActivity("Signing in", cancellable: true, blocking: .dim) { _ in
                    try await Task.sleep(for: .seconds(600))
                }
            }
        }
        try await settle(scheduler) { controller.state.phase == .pending }
        #expect(controller.state.blocksInput)
        scheduler.advance(to: 500)
        #expect(controller.state.isVisible)
        #expect(controller.state.title == "Signing in")
        #expect(controller.state.cancel == .available)

        controller.cancelTapped()
        controller.cancelTapped()
        let result = await work.result
        #expect(throws: CancellationError.self) { try result.get() }
        try await settle(scheduler) { controller.state.phase != .visible }
        #expect(controller.state.phase == .holding)  // cancelled: no flash, the minimum show time holds
        scheduler.advance(to: 1000)
        #expect(controller.state.phase == .idle)
        #expect(!controller.state.blocksInput)
    }
}
