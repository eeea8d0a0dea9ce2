import ActivityPOSIX
import ActivityWire
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the activities begun under one bootstrap go: a sink, the parent of top-level activities,
/// and what to tell child processes.
final class Reporter: Sendable {
    let sink: any ActivityEventSink
    /// `false` when nothing is written: activities still work (current, cancellation), cheaply.
    let isEnabled: Bool
    /// The parent of this process's top-level activities (`ACTIVITY_PARENT`).
    let parent: ActivityID?
    /// The sink a child process should write to, when the sink is one a child can open.
    let childDestination: ActivitySinkDestination?
    /// Whether the background flusher sends this reporter's progress. Tests turn it off to decide
    /// themselves when progress is sent.
    let flushesInBackground: Bool

    init(
        sink: any ActivityEventSink, parent: ActivityID?, childDestination: ActivitySinkDestination? = nil,
        flushesInBackground: Bool = true
    ) {
        self.sink = sink
        self.flushesInBackground = flushesInBackground
        self.isEnabled = !(sink is NoOpActivitySink)
        self.parent = parent
        self.childDestination = childDestination ?? Reporter.destination(of: sink)
    }

    static let disabled = Reporter(sink: NoOpActivitySink(), parent: nil)

    private static func destination(of sink: any ActivityEventSink) -> ActivitySinkDestination? {
        if let sink = sink as? JSONLinesSink { return sink.destination }
        if let sink = sink as? MultiplexActivitySink {
            return sink.sinks.lazy.compactMap { destination(of: $0) }.first
        }
        return nil
    }
}

/// Makes activity ids unique without coordination: a random 64-bit prefix per process, renewed
/// after `fork()`, and a counter (`3f9c2a71d04be815.12`).
enum ActivityIDGenerator {
    final class Prefix: Sendable {
        let text: String

        init() {
            text = ActivityID.randomPrefix()
        }
    }

    private static let prefix = PerProcess<Prefix> { _ in Prefix() }
    private static let counter = Atomic<Int>(0)

    static func next() -> ActivityID {
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return ActivityID(unchecked: "\(prefix.value.text).\(number)")
    }
}

/// The table of live activities and the background thread that sends their coalesced progress.
///
/// The thread starts with the first activity that reports, sleeps while none is live, and otherwise
/// wakes ``interval`` apart (15 Hz), so each activity sends at most 15 `progress` events a second
/// however often it advances. A program that reports nowhere never starts it. After `fork()` the
/// child has a flusher of its own, with an empty table: its parent's activities are not its own.
final class Flusher: Sendable {
    /// The flusher of this process; a child made by `fork()` gets its own.
    static var shared: Flusher { perProcess.value }

    private static let perProcess = PerProcess<Flusher> { _ in Flusher() }

    /// The time between two flushes: about 15 per second.
    static let interval = 1.0 / 15

    private struct State {
        var live: [ActivityID: ActivityCore] = [:]
        /// How many live activities the thread flushes (reporting on, background flushing on).
        var flushable = 0
        var threadStarted = false
        var wake = DispatchSemaphore(value: 0)
    }

    private let state = Lock(State())

    func register(_ core: ActivityCore) {
        let flushable = core.reporter.isEnabled && core.reporter.flushesInBackground
        let wake = state.withLock { state -> DispatchSemaphore? in
            state.live[core.id] = core
            guard flushable else { return nil }
            state.flushable += 1
            if !state.threadStarted {
                state.threadStarted = true
                startThread(wake: state.wake)
            }
            return state.flushable == 1 ? state.wake : nil
        }
        wake?.signal()
    }

    func unregister(_ core: ActivityCore) {
        state.withLock { state in
            guard state.live[core.id] === core else { return }
            state.live[core.id] = nil
            if core.reporter.isEnabled && core.reporter.flushesInBackground { state.flushable -= 1 }
        }
    }

    /// The live activity with this id, if any.
    func core(for id: ActivityID) -> ActivityCore? {
        state.withLock { $0.live[id] }
    }

    /// Ends every live activity of this process, children before their parents.
    func endAll(status: ActivityEvent.Status, message: String) {
        let cores = state.withLock { Array($0.live.values) }
        let byID = Dictionary(cores.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func depth(_ core: ActivityCore) -> Int {
            var depth = 0
            var parent = core.parent
            while let id = parent, let next = byID[id], depth < byID.count {
                depth += 1
                parent = next.parent
            }
            return depth
        }
        for core in cores.map({ (core: $0, depth: depth($0)) }).sorted(by: { $0.depth > $1.depth }).map(\.core) {
            core.end(status: status, message: message, error: nil)
        }
    }

    /// Sends every live activity's pending progress now, or only those of `reporter`. `waiting`
    /// also flushes activities whose lock is busy, waiting for it.
    func flushAll(waiting: Bool, of reporter: Reporter? = nil) {
        let cores = state.withLock { state in
            state.live.values.filter { core in reporter.map { core.reporter === $0 } ?? true }
        }
        for core in cores { core.flushProgress(waiting: waiting) }
    }

    private func startThread(wake: DispatchSemaphore) {
        // Without a thread, progress is written when the activity ends, or flushed by hand.
        _ = HelperThread.detach(named: "activity-flusher") { [self] in
            while true {
                let idle = state.withLock { $0.flushable == 0 }
                if idle {
                    wake.wait()
                } else {
                    _ = wake.wait(timeout: .now() + Flusher.interval)
                    flushAll(waiting: false)
                }
            }
        }
    }
}
