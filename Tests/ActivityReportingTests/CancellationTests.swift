import ActivityWire
import Foundation
import InMemoryActivity
import Synchronization
import Testing

@testable import ActivityReporting

@Suite("Cancellation by a consumer")
struct CancellationTests {
    @Test("ActivitySystem.cancel cancels the task running a cancellable activity's body")
    func cancelByID() async throws {
        try await withInMemoryReporter { sink in
            // The body runs in a task of its own: cancelling the test's task would cancel the test.
            let work = Task {
                try await withActivity("Signing in", cancellable: true, blocking: .dim) { activity in
                    let id = activity.id
                    // A consumer on another thread: an overlay's cancel button.
                    Thread.detachNewThread { ActivitySystem.cancel(id) }
                    try await Task.sleep(for: .seconds(600))
                }
            }
            await #expect(throws: CancellationError.self) { try await work.value }
            let begin = try #require(sink.begins.first)
            #expect(begin.cancellable)
            #expect(begin.blocking == .dim)
            #expect(sink.ends.first?.status == .cancelled)
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("A sink may cancel from inside send, as an overlay's reducer does, without a deadlock")
    func cancelFromSink() async throws {
        /// Cancels an activity as soon as it reports any progress.
        final class CancellingSink: ActivityEventSink {
            let events = InMemoryActivitySink()
            func send(_ event: ActivityEvent) {
                events.send(event)
                if case .progress(let progress) = event { ActivitySystem.cancel(progress.id) }
            }
        }
        let sink = CancellingSink()
        let work = Task {
            try await ActivitySystem.$taskReporter.withValue(Reporter(sink: sink, parent: nil)) {
                try await withActivity("Uploading", total: 10, cancellable: true) { activity in
                    activity.advance()
                    ActivitySystem.flushAll()
                    try await Task.sleep(for: .seconds(600))
                }
            }
        }
        await #expect(throws: CancellationError.self) { try await work.value }
        #expect(sink.events.ends.map(\.status) == [.cancelled])
    }

    @Test("A cancel sent while the begin is being delivered is not lost (a consumer that answers at once)")
    func cancelDuringBegin() async throws {
        /// Cancels an activity the moment its begin arrives, as an overlay tapped at once does.
        final class CancelOnBeginSink: ActivityEventSink {
            let events = InMemoryActivitySink()
            let accepted = Mutex<[Bool]>([])
            func send(_ event: ActivityEvent) {
                events.send(event)
                if case .begin(let begin) = event {
                    let result = ActivitySystem.cancel(begin.id)
                    accepted.withLock { $0.append(result) }
                }
            }
        }
        let sink = CancelOnBeginSink()
        let work = Task {
            try await ActivitySystem.$taskReporter.withValue(Reporter(sink: sink, parent: nil)) {
                try await withActivity("Signing in", cancellable: true) { _ async throws in try Task.checkCancellation()
                }
            }
        }
        await #expect(throws: CancellationError.self) { try await work.value }
        #expect(sink.accepted.withLock { $0 } == [true])
        #expect(sink.events.ends.map(\.status) == [.cancelled])
    }

    @Test("Cancelling reaches child tasks of the body")
    func childTasks() async throws {
        await withInMemoryReporter { sink in
            let work = Task {
                try await withActivity("Syncing", cancellable: true) { activity in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for index in 0..<3 {
                            group.addTask {
                                try await withActivity("Folder \(index)") { _ in
                                    try await Task.sleep(for: .seconds(600))
                                }
                            }
                        }
                        group.addTask { activity.cancel() }
                        try await group.waitForAll()
                    }
                }
            }
            await #expect(throws: CancellationError.self) { try await work.value }
            #expect(sink.ends.count == 4)
            #expect(sink.ends.allSatisfy { $0.status == .cancelled })
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("An activity that is not cancellable, unknown, or ended cannot be cancelled")
    func refused() async throws {
        await withInMemoryReporter { _ in
            let ran = withActivity("Not cancellable") { activity -> Bool in
                #expect(ActivitySystem.cancel(activity.id) == false)
                #expect(!activity.isCancelled)
                return !Task.isCancelled
            }
            #expect(ran)
            #expect(ActivitySystem.cancel(ActivityID("nobody.1")!) == false)
            let ended = Activity.begin("Ended", cancellable: true, parent: nil)
            ended.end()
            #expect(ActivitySystem.cancel(ended.id) == false)
        }
    }

    @Test("Synchronous code sees the flag; a cancel before the body starts still cancels its task")
    func synchronousAndEarly() async throws {
        await withInMemoryReporter { sink in
            let work = Task {
                try withActivity("Hashing", total: 100, cancellable: true) { activity in
                    for index in 0..<100 {
                        if index == 10 { ActivitySystem.cancel(activity.id) }
                        try activity.checkCancellation()
                        activity.advance()
                    }
                }
            }
            await #expect(throws: CancellationError.self) { try await work.value }
            let reporter = ActivitySystem.reporter
            let outsideTask = await onThread {
                do {
                    try ActivitySystem.$taskReporter.withValue(reporter) {
                        try withActivity("Outside any task", cancellable: true) { activity in
                            activity.cancel()
                            #expect(activity.isCancelled)
                            try activity.checkCancellation()
                        }
                    }
                    return false
                } catch {
                    return error is CancellationError
                }
            }
            #expect(outsideTask)
            #expect(sink.ends.map(\.status) == [.cancelled, .cancelled])
            #expect(sink.ends.first?.completed == 10)
        }
    }
}

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("Many tasks advancing one activity: the exact final count arrives")
    func stress() async throws {
        try await withInMemoryReporter(flushesInBackground: true) { sink in
            let tasks = 8
            let perTask = 20_000
            await withActivity("Stress", total: tasks * perTask) { activity in
                await withTaskGroup(of: Void.self) { group in
                    for index in 0..<tasks {
                        group.addTask {
                            for step in 0..<perTask {
                                if step % 4 == 0 { activity.advance(by: 1.0) } else { activity.advance() }
                                if index == 0, step % 5000 == 0 { activity.update(message: "step \(step)") }
                            }
                        }
                    }
                }
            }
            let id = try #require(sink.begins.first?.id)
            let completed = completedValues(sink.events, id)
            #expect(completed.last == Double(tasks * perTask))
            #expect(completed == completed.sorted(), "progress never goes backwards")
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("Many threads beginning, logging and ending at once produce a valid stream")
    func threads() async throws {
        await withInMemoryReporter(flushesInBackground: true) { sink in
            let reporter = ActivitySystem.reporter
            await withActivity("Parent") { parent in
                await onThread {
                    DispatchQueue.concurrentPerform(iterations: 16) { index in
                        ActivitySystem.$taskReporter.withValue(reporter) {
                            for step in 0..<50 {
                                let child = Activity.begin("Job \(index).\(step)", total: 10, parent: parent)
                                child.advance(by: 10)
                                child.log("halfway")
                                child.end()
                            }
                        }
                    }
                }
            }
            #expect(sink.begins.count == 801)
            #expect(sink.ends.count == 801)
            #expect(problems(in: sink.events) == [])
        }
    }
}
