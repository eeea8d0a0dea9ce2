import ActivityWire
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The shared state of one activity: what ``Activity`` handles point to, and what the flusher and
/// ``ActivitySystem/cancel(_:)`` find in the table of live activities.
///
/// The hot path (`advance(by:)`) touches one relaxed atomic add and nothing else.
/// Everything that sends an event holds `state`'s lock while it does, so the events of one activity
/// reach the sink in order: `begin`, coalesced `progress`, `end` with the final numbers, and nothing
/// after `end`.
final class ActivityCore: Sendable {
    let id: ActivityID
    let parent: ActivityID?
    let reporter: Reporter
    let isCancellable: Bool
    /// The process that began the activity. In a child made by `fork()` every call on an inherited
    /// activity does nothing: its locks may be held by threads that do not exist there, and its
    /// lines belong to the parent's stream.
    let pid = getpid()

    /// Whole units added by `advance(by:)` since `State.base` was last set.
    let units = Atomic<Int>(0)
    let cancelRequested = Atomic<Bool>(false)
    let ended = Atomic<Bool>(false)
    let state: Lock<State>
    /// The tasks running the body of a cancellable activity. A lock of its own, so that
    /// ``cancel()`` never waits for `state`: a consumer may cancel from inside its sink's `send`,
    /// which runs under `state`'s lock.
    let tasks = Lock(Tasks())

    struct Tasks {
        var running: [Int: TaskHandle] = [:]
        var nextKey = 0
        var closed = false
        /// Called once, when the activity is cancelled (``Activity/onCancel(_:)``).
        var handlers: [@Sendable () -> Void] = []
    }

    struct State {
        var title: String
        var base: Double
        var total: Double?
        var message: String?
        var sentCompleted: Double
        var sentTotal: Double?
        var titleChanged = false
        var messageChanged = false
        var totalChanged = false
        var isEnded = false
        /// What ``Activity/track(_:)`` follows, read before each flush and at the end.
        var tracked: (any TrackedProgressSource)?
    }

    init(
        id: ActivityID, parent: ActivityID?, reporter: Reporter, title: String, total: Double?, completed: Double,
        message: String?, cancellable: Bool
    ) {
        self.id = id
        self.parent = parent
        self.reporter = reporter
        self.isCancellable = cancellable
        self.state = Lock(
            State(
                title: title, base: completed, total: total, message: message, sentCompleted: completed,
                sentTotal: total
            )
        )
    }

    // MARK: Numbers and text

    /// The amount of work done now.
    func completed(_ state: State) -> Double {
        state.base + Double(units.load(ordering: .relaxed))
    }

    func set(completed: Double?, total: Double??, message: String?, title: String?) {
        guard pid == getpid() else { return }
        state.withLock { state in
            guard !state.isEnded else { return }
            if let completed {
                units.store(0, ordering: .relaxed)
                state.base = completed
            }
            if let total, total != state.total {
                state.total = total
                state.totalChanged = true
            }
            if let message, message != state.message {
                state.message = message
                state.messageChanged = true
            }
            if let title, title != state.title {
                state.title = title
                state.titleChanged = true
            }
        }
    }

    func add(_ amount: Double) {
        guard pid == getpid() else { return }
        state.withLock { state in
            guard !state.isEnded else { return }
            state.base += amount
        }
    }

    /// The `progress` event that brings a consumer up to date, or `nil` when nothing changed.
    private func pendingProgress(_ state: inout State) -> ActivityEvent.Progress? {
        let completed = min(completed(state), WireLimits.maxCount)
        let completedChanged = completed != state.sentCompleted
        guard completedChanged || state.totalChanged || state.messageChanged || state.titleChanged else { return nil }
        var event = ActivityEvent.Progress(id: id)
        if completedChanged { event.completed = completed }
        if state.totalChanged { event.total = state.total.map { .value($0) } ?? .indeterminate }
        if state.messageChanged { event.message = state.message }
        if state.titleChanged { event.title = state.title }
        state.sentCompleted = completed
        if state.totalChanged { state.sentTotal = state.total }
        state.totalChanged = false
        state.messageChanged = false
        state.titleChanged = false
        return event
    }

    // MARK: Events

    /// Sends the coalesced progress, if any. Called by the flusher; skips an activity whose lock is
    /// busy (it is being ended or updated, and the next tick catches up).
    /// A tracked progress found cancelled ends the activity `cancelled` here, after the lock.
    func flushProgress(waiting: Bool = false) {
        guard reporter.isEnabled, !ended.load(ordering: .relaxed) else { return }
        var trackedCancelled: Bool?
        if waiting {
            trackedCancelled = state.withLock { sendPending(&$0) }
        } else if reporter.flushesInBackground {
            trackedCancelled = state.withLockIfAvailable { sendPending(&$0) }
        }
        if trackedCancelled == true {
            // The body of a cancellable activity stops as on a consumer's cancel.
            _ = cancel()
            end(status: .cancelled, message: nil, error: nil)
        }
    }

    /// Returns whether the tracked progress, if any, has been cancelled.
    private func sendPending(_ state: inout State) -> Bool {
        guard !state.isEnded else { return false }
        let trackedCancelled = readTracked(&state)
        if var event = pendingProgress(&state) {
            event.timestamp = wallClockTimestamp()
            reporter.sink.send(.progress(event))
        }
        return trackedCancelled
    }

    /// Ends the activity. The `end` line carries the final count and total, so the latest progress
    /// always arrives with it (as with the C library); a title or message not yet sent goes first,
    /// in a `progress` line of its own. Returns `false` when the activity had already ended.
    @discardableResult
    func end(status: ActivityEvent.Status, message: String?, error: String?) -> Bool {
        guard pid == getpid() else { return false }
        let didEnd = state.withLock { state -> Bool in
            guard !state.isEnded else { return false }
            state.isEnded = true
            ended.store(true, ordering: .relaxed)
            defer { state.tracked = nil }
            guard reporter.isEnabled else { return true }
            let now = wallClockTimestamp()
            // Work whose Progress was cancelled did not succeed, whatever the body returned.
            let status = readTracked(&state) && status == .success ? .cancelled : status
            if state.titleChanged || state.messageChanged {
                var text = ActivityEvent.Progress(id: id, timestamp: now)
                if state.titleChanged { text.title = state.title }
                if state.messageChanged { text.message = state.message }
                reporter.sink.send(.progress(text))
            }
            var end = ActivityEvent.End(id: id, status: status, message: message, error: error, timestamp: now)
            let completed = min(completed(state), WireLimits.maxCount)
            if completed > 0 || completed != state.sentCompleted { end.completed = completed }
            if let total = state.total {
                end.total = .value(total)
            } else if state.sentTotal != nil {
                end.total = .indeterminate
            }
            reporter.sink.send(.end(end))
            return true
        }
        if didEnd {
            tasks.withLock { tasks in
                tasks.closed = true
                tasks.running.removeAll()
                tasks.handlers.removeAll()
            }
            Flusher.shared.unregister(self)
        }
        return didEnd
    }

    func log(_ message: String, level: ActivityEvent.Level) {
        guard reporter.isEnabled, pid == getpid() else { return }
        state.withLock { state in
            // A line for an activity that has ended is still worth showing, but not under its id.
            let event = ActivityEvent.Log(
                message: message, id: state.isEnded ? nil : id, level: level, timestamp: wallClockTimestamp()
            )
            reporter.sink.send(.log(event))
        }
    }

    // MARK: Cancellation

    /// Marks the activity cancelled, cancels every task running its `withActivity` body and calls
    /// the ``Activity/onCancel(_:)`` handlers, once. Returns `false` when the activity is not
    /// cancellable, has ended, or was cancelled before. Never takes `state`'s lock, so it may be
    /// called from a sink while an event of this activity is being sent.
    func cancel() -> Bool {
        guard isCancellable, !ended.load(ordering: .relaxed),
            !cancelRequested.exchange(true, ordering: .relaxed)
        else { return false }
        let handlers = tasks.withLock { tasks -> [@Sendable () -> Void] in
            guard !tasks.closed else { return [] }
            for handle in tasks.running.values { handle.task.cancel() }
            defer { tasks.handlers.removeAll() }
            return tasks.handlers
        }
        for handler in handlers { handler() }
        return true
    }

    /// Adds a handler for ``cancel()``; runs it at once when the activity is already cancelled,
    /// and never when it has ended. Returns `false` when it will never run.
    @discardableResult
    func onCancel(_ handler: @escaping @Sendable () -> Void) -> Bool {
        guard isCancellable else { return false }
        let now = tasks.withLock { tasks -> Bool? in
            guard !tasks.closed else { return nil }
            if cancelRequested.load(ordering: .relaxed) { return true }
            tasks.handlers.append(handler)
            return false
        }
        if now == true { handler() }
        return now != nil
    }

    /// Registers the task that runs the current code, so that ``cancel()`` can cancel it. Returns a
    /// key for ``detach(_:)``, or `nil` outside a task.
    func attachCurrentTask() -> Int? {
        guard isCancellable else { return nil }
        return withUnsafeCurrentTask { task -> Int? in
            guard let task else { return nil }
            return tasks.withLock { tasks -> Int? in
                guard !tasks.closed else { return nil }
                if cancelRequested.load(ordering: .relaxed) { task.cancel() }
                let key = tasks.nextKey
                tasks.nextKey += 1
                tasks.running[key] = TaskHandle(task: task)
                return key
            }
        }
    }

    /// Forgets a task registered by ``attachCurrentTask()``; called before that task's body returns.
    func detach(_ key: Int?) {
        guard let key else { return }
        tasks.withLock { _ = $0.running.removeValue(forKey: key) }
    }
}

/// A task running a cancellable activity's body.
///
/// `UnsafeCurrentTask` must not outlive its task. The handle is registered when the body starts
/// and removed before the body returns (and when the activity ends), so it never does; cancelling a
/// task is safe from any thread.
struct TaskHandle: @unchecked Sendable {
    let task: UnsafeCurrentTask
}
