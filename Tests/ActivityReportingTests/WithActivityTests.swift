import ActivityWire
import Foundation
import InMemoryActivity
import TestSupport
import Testing

@testable import ActivityReporting

@Suite("withActivity")
struct WithActivityTests {
    @Test("Begins, runs the body with the activity current, ends with success")
    func success() async throws {
        try await withInMemoryReporter { sink in
            let result = withActivity("Downloading", total: 12, unit: "files", attrs: ["x-kind": "test"]) {
                activity in
                #expect(Activity.current === activity)
                return 42
            }
            #expect(result == 42)
            #expect(Activity.current == nil)
            let events = sink.events
            let begin = try #require(events.first?.begin)
            #expect(begin.title == "Downloading")
            #expect(begin.total == 12)
            #expect(begin.unit == "files")
            #expect(begin.parent == nil)
            #expect(begin.attrs == ["x-kind": "test"])
            #expect(begin.timestamp != nil)
            let end = try #require(events.last?.end)
            #expect(end.id == begin.id)
            #expect(end.status == .success)
            #expect(problems(in: events) == [])
        }
    }

    @Test("A thrown error ends the activity with failure and its text, then is rethrown")
    func failure() async throws {
        await withInMemoryReporter { sink in
            await #expect(throws: TestError.self) {
                try await withActivity("Signing in") { _ async throws in throw TestError("the server said no") }
            }
            #expect(throws: TestError.self) {
                try withActivity("Parsing") { _ in throw TestError("bad byte at 12") }
            }
            let ends = sink.ends
            #expect(ends.map(\.status) == [.failure, .failure])
            #expect(ends.map(\.error) == ["the server said no", "bad byte at 12"])
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("CancellationError and task cancellation end the activity as cancelled")
    func cancelled() async throws {
        await withInMemoryReporter { sink in
            await #expect(throws: CancellationError.self) {
                try await withActivity("Waiting") { _ async throws in throw CancellationError() }
            }
            let task = Task {
                try await withActivity("Sleeping") { _ in try await Task.sleep(for: .seconds(600)) }
            }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(sink.ends.map(\.status) == [.cancelled, .cancelled])
            #expect(sink.ends.allSatisfy { $0.error == nil })
        }
    }

    @Test("The synchronous form binds the current activity and returns the body's value")
    func synchronous() async throws {
        await withInMemoryReporter { sink in
            let value = withActivity("Indexing", total: 3) { activity -> String in
                activity.advance(by: 3)
                withActivity("Tokenizing") { inner in
                    #expect(inner.parentID == activity.id)
                    #expect(Activity.current === inner)
                }
                return "done"
            }
            #expect(value == "done")
            let events = sink.events
            #expect(events.map(\.typeName) == ["begin", "begin", "end", "end"])
            #expect(events[3].end?.completed == 3)
            #expect(problems(in: events) == [])
        }
    }

    @Test("Progress is coalesced; the exact last value arrives before end")
    func coalescedProgress() async throws {
        await withInMemoryReporter(flushesInBackground: true) { sink in
            withActivity("Copying", total: 100_000, unit: "bytes") { activity in
                for _ in 0..<100_000 { activity.advance() }
            }
            let events = sink.events
            let progress = events.compactMap(\.progress)
            #expect(progress.count < 100)
            #expect(events.last?.end?.completed == 100_000)
            #expect(events.last?.end != nil)
            #expect(problems(in: events) == [])
        }
    }

    @Test("The background flusher sends progress without any further call")
    func backgroundFlush() async throws {
        await withInMemoryReporter(flushesInBackground: true) { sink in
            await withActivity("Waiting for the flusher", total: 10) { activity in
                activity.advance(by: 7)
                await Poll.until(timeout: 900) { !sink.events.compactMap(\.progress).isEmpty }
                #expect(sink.events.compactMap(\.progress).first?.completed == 7)
            }
        }
    }

    @Test("update changes numbers and text; removeTotal makes the activity indeterminate")
    func update() async throws {
        try await withInMemoryReporter { sink in
            let activity = Activity.begin("Scanning", parent: nil)
            activity.update(completed: 5, total: 40, message: "found 40 files", title: "Scanning sources")
            ActivitySystem.flushAll()
            activity.update(completed: 7.5)
            activity.removeTotal()
            #expect(activity.total == nil)
            #expect(activity.completed == 7.5)
            activity.end(message: "40 files")
            let progress = sink.events.compactMap(\.progress)
            #expect(progress.count == 1)
            #expect(progress[0].completed == 5)
            #expect(progress[0].total == .value(40))
            #expect(progress[0].message == "found 40 files")
            #expect(progress[0].title == "Scanning sources")
            let end = try #require(sink.ends.first)
            #expect(end.completed == 7.5)
            #expect(end.total == .indeterminate)
            #expect(end.message == "40 files")
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("log sends at once, under the activity's id, and without it after the end")
    func logging() async throws {
        await withInMemoryReporter { sink in
            let activity = Activity.begin("Fetching", parent: nil)
            activity.advance(by: 3)
            activity.log("retrying after a timeout", level: .warning)
            activity.end()
            activity.log("late line")
            let events = sink.events
            #expect(events.map(\.typeName) == ["begin", "log", "end", "log"])
            #expect(events[1].log?.id == activity.id)
            #expect(events[1].log?.level == .warning)
            #expect(events[2].end?.completed == 3)
            #expect(events[3].log?.id == nil)
            #expect(problems(in: events) == [])
        }
    }

    @Test("Ending twice is a no-op; calls after the end do nothing")
    func endTwice() async throws {
        await withInMemoryReporter { sink in
            let activity = Activity.begin("Once", parent: nil)
            activity.end()
            activity.end(.failure, error: "again")
            activity.advance(by: 5)
            activity.update(completed: 9, message: "late")
            ActivitySystem.flushAll()
            #expect(activity.isEnded)
            #expect(sink.events.map(\.typeName) == ["begin", "end"])
            #expect(sink.ends.first?.status == .success)
        }
    }

    @Test("An activity released without end ends as failure: never ended")
    func neverEnded() async throws {
        try await withInMemoryReporter { sink in
            do {
                let forgotten = Activity.begin("Forgotten", parent: nil)
                forgotten.advance(by: 2)
            }
            let end = try #require(sink.ends.first)
            #expect(end.status == .failure)
            #expect(end.error == "never ended")
            #expect(end.completed == 2)
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("Negative and non-finite numbers are clamped or ignored, never a crash")
    func badNumbers() async throws {
        await withInMemoryReporter { sink in
            let activity = Activity.begin("Odd numbers", total: -5, parent: nil)
            activity.advance(by: -3)
            activity.advance(by: .nan)
            activity.advance(by: -.infinity)
            activity.update(completed: .nan, total: .infinity)
            activity.update(completed: -4)
            #expect(activity.completed == 0)
            activity.update(total: 1e300)
            activity.advance(by: 2.5)
            activity.end()
            var attrs: [String: AttributeValue] = ["x-nan": .number(.nan), String(repeating: "k", count: 65): 1]
            for index in 0..<40 { attrs["x-\(index)"] = .bool(true) }
            withActivity("Too many attributes", attrs: attrs) { _ in }
            #expect(sink.begins.last?.attrs.count == 32)
            #expect(sink.begins.last?.attrs["x-nan"] == nil)
            #expect(sink.begins.first?.total == 0)
            #expect(sink.ends.first?.total == .value(9_007_199_254_740_992))
            #expect(sink.ends.first?.completed == 2.5)
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("Foundation.Progress is tracked at the flush rate and once more at the end")
    func foundationProgress() async throws {
        await withInMemoryReporter { sink in
            let progress = Progress(totalUnitCount: 10)
            withActivity("Importing") { activity in
                activity.track(progress)
                progress.completedUnitCount = 4
                ActivitySystem.flushAll()
                progress.completedUnitCount = 10
            }
            let updates = sink.events.compactMap(\.progress)
            #expect(updates.first?.total == .value(10))
            #expect(updates.first?.completed == 4)
            #expect(sink.ends.first?.completed == 10)
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("Activities report nothing, cheaply, when reporting is off")
    func disabled() async throws {
        let reporter = Reporter.disabled
        ActivitySystem.$taskReporter.withValue(reporter) {
            withActivity("Quiet", total: 3) { activity in
                activity.advance()
                #expect(Activity.current === activity)
                #expect(activity.completed == 1)
            }
        }
    }
}

extension ActivitySystem {
    /// Sends the pending progress of the current reporter's activities, without touching any
    /// sink's queue. Only this test's: tests run in parallel in one process, and a flush of
    /// another test's activities would send progress that test expects to stay coalesced.
    static func flushAll() {
        Flusher.shared.flushAll(waiting: true, of: reporter)
    }
}
