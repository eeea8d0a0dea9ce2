import ActivityWire
import Foundation
import InMemoryActivity
import Testing

@testable import ActivityReporting

/// A `Progress` whose `localizedAdditionalDescription` says what the test sets: on Linux the
/// property is read-only and always empty, so a program that has one overrides it this way.
final class DescribedProgress: Progress, @unchecked Sendable {
    var text = ""
    override var localizedAdditionalDescription: String! {
        get { text }
        set { text = newValue ?? "" }
    }
}

@Suite("Tracking a Foundation Progress")
struct ProgressTrackingTests {
    @Test("A Progress with a child moves while the child runs, not only when it finishes")
    func childMoves() async throws {
        await withInMemoryReporter { sink in
            let parent = Progress(totalUnitCount: 2)
            let child = Progress(totalUnitCount: 10)
            withActivity("Fetching") { activity in
                activity.track(parent)
                parent.addChild(child, withPendingUnitCount: 1)
                child.completedUnitCount = 5
                ActivitySystem.flushAll()
                #expect(activity.completed == 0.5)
                child.completedUnitCount = 10
                ActivitySystem.flushAll()
                parent.completedUnitCount += 1
            }
            let id = try! #require(sink.begins.first?.id)
            #expect(completedValues(sink.events, id) == [0.5, 1, 2])
            #expect(sink.events.compactMap(\.progress).first?.total == .value(2))
            #expect(sink.ends.first?.status == .success)
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("The background flusher sends a child's progress while it runs")
    func childMovesInBackground() async throws {
        try await withInMemoryReporter(flushesInBackground: true) { sink in
            let parent = Progress(totalUnitCount: 2)
            let activity = Activity.begin("Fetching")
            activity.track(parent)
            let child = Progress(totalUnitCount: 4, parent: parent, pendingUnitCount: 2)
            child.completedUnitCount = 1
            // The flusher's own thread picks it up; the deadline only bounds a broken run.
            try await waitUntil(within: 120) { completedValues(sink.events, activity.id).contains(0.5) }
            activity.end()
            #expect(sink.events.compactMap(\.progress).first { $0.completed == 0.5 }?.total == .value(2))
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("An indeterminate Progress makes the activity indeterminate, and a total later makes it determinate")
    func indeterminate() async throws {
        await withInMemoryReporter { sink in
            let progress = Progress(totalUnitCount: -1)
            withActivity("Scanning", total: 5) { activity in
                activity.track(progress)
                ActivitySystem.flushAll()
                #expect(activity.total == nil)
                progress.totalUnitCount = 8
                progress.completedUnitCount = 2
                ActivitySystem.flushAll()
            }
            let updates = sink.events.compactMap(\.progress)
            #expect(updates.map(\.total) == [.indeterminate, .value(8)])
            #expect(sink.ends.first?.completed == 2)
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("localizedAdditionalDescription becomes the message when it says something")
    func message() async throws {
        await withInMemoryReporter { sink in
            let progress = DescribedProgress(totalUnitCount: 3)
            withActivity("Copying", message: "starting") { activity in
                activity.track(progress)
                ActivitySystem.flushAll()
                progress.text = "1 of 3 files"
                progress.completedUnitCount = 1
                ActivitySystem.flushAll()
                progress.text = "3 of 3 files"
                progress.completedUnitCount = 3
            }
            // An empty description leaves the begin's message alone.
            #expect(sink.events.compactMap(\.progress).compactMap(\.message) == ["1 of 3 files", "3 of 3 files"])
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("Progress.cancel() ends the activity cancelled at the next flush, not success")
    func cancelledProgressEnds() async throws {
        await withInMemoryReporter { sink in
            let progress = Progress(totalUnitCount: 10)
            let activity = Activity.begin("Importing")
            activity.track(progress)
            progress.completedUnitCount = 3
            progress.cancel()
            ActivitySystem.flushAll()
            #expect(activity.isEnded)
            activity.end()  // what the code would do once its work stops: changes nothing
            #expect(sink.ends.map(\.status) == [.cancelled])
            #expect(sink.ends.first?.completed == 3)
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("A body that returns after its Progress was cancelled ends cancelled")
    func cancelledProgressBodyReturns() async throws {
        await withInMemoryReporter { sink in
            let parent = Progress(totalUnitCount: 1)
            withActivity("Importing") { activity in
                activity.track(parent)
                let child = Progress(totalUnitCount: 1, parent: parent, pendingUnitCount: 1)
                child.cancel()  // a child's cancel leaves the parent going
                parent.cancel()
            }
            #expect(sink.ends.map(\.status) == [.cancelled])
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("A cancelled Progress cancels the task running a cancellable activity's body")
    func cancelledProgressCancelsTask() async throws {
        await withInMemoryReporter(flushesInBackground: true) { sink in
            let progress = Progress(totalUnitCount: 10)
            let work = Task {
                try await withActivity("Importing", cancellable: true) { activity in
                    activity.track(progress)
                    progress.cancel()
                    try await Task.sleep(for: .seconds(600))
                }
            }
            await #expect(throws: CancellationError.self) { try await work.value }
            #expect(sink.ends.map(\.status) == [.cancelled])
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("A consumer's cancel of a cancellable activity cancels the tracked Progress")
    func consumerCancelCancelsProgress() async throws {
        await withInMemoryReporter { sink in
            let progress = Progress(totalUnitCount: 4)
            let child = Progress(totalUnitCount: 1, parent: progress, pendingUnitCount: 4)
            let activity = Activity.begin("Uploading", cancellable: true)
            activity.track(progress)
            #expect(ActivitySystem.cancel(activity.id))
            #expect(progress.isCancelled)
            #expect(child.isCancelled)
            ActivitySystem.flushAll()
            #expect(sink.ends.map(\.status) == [.cancelled])
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("A Progress tracked by an activity that is not cancellable is never cancelled by it")
    func notCancellable() async throws {
        await withInMemoryReporter { sink in
            let progress = Progress(totalUnitCount: 1)
            let activity = Activity.begin("Uploading")
            activity.track(progress)
            #expect(!ActivitySystem.cancel(activity.id))
            #expect(!progress.isCancelled)
            progress.completedUnitCount = 1
            activity.end()
            #expect(sink.ends.map(\.status) == [.success])
        }
    }
}
