import Synchronization

/// The clock and the timers an ``OverlayController`` runs on.
///
/// Conforming types must give a monotonic time in integer milliseconds (any origin), and run the
/// actions they are handed on the main actor: soon for ``enqueue(_:)``, at or after the deadline for
/// ``schedule(at:_:)`` unless cancelled. Apps use ``ContinuousClockOverlayScheduler``; tests use
/// ``ManualOverlayScheduler`` and move time by hand.
public protocol OverlayScheduler: Sendable {
    /// The current time, in milliseconds on a monotonic clock.
    func now() -> Int

    /// Runs `action` on the main actor as soon as possible, after actions enqueued before it.
    func enqueue(_ action: @escaping @MainActor @Sendable () -> Void)

    /// Runs `action` on the main actor once ``now()`` has reached `deadline`, unless the returned
    /// timer is cancelled first.
    func schedule(at deadline: Int, _ action: @escaping @MainActor @Sendable () -> Void) -> any OverlayTimer
}

/// A scheduled action that may still be cancelled.
public protocol OverlayTimer: Sendable {
    /// Makes sure the action does not run. Harmless after it ran.
    func cancel()
}

/// The scheduler for apps: the `ContinuousClock` for time, main-actor tasks for actions.
///
/// ```swift
/// let controller = OverlayController(scheduler: ContinuousClockOverlayScheduler())
/// ```
public struct ContinuousClockOverlayScheduler: OverlayScheduler {
    private let origin: ContinuousClock.Instant

    /// Creates a scheduler whose time 0 is now.
    public init() {
        origin = .now
    }

    public func now() -> Int {
        let elapsed = ContinuousClock.now - origin
        return Int(elapsed.components.seconds) * 1000 + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
    }

    public func enqueue(_ action: @escaping @MainActor @Sendable () -> Void) {
        Task { @MainActor in action() }
    }

    public func schedule(at deadline: Int, _ action: @escaping @MainActor @Sendable () -> Void) -> any OverlayTimer {
        let delay = max(0, deadline - now())
        let task = Task { @MainActor in
            do {
                try await Task.sleep(for: .milliseconds(delay), tolerance: .milliseconds(5))
            } catch {
                return
            }
            action()
        }
        return TaskTimer(task: task)
    }

    private struct TaskTimer: OverlayTimer {
        let task: Task<Void, Never>
        func cancel() { task.cancel() }
    }
}

/// A scheduler whose time moves only when told: for tests, and for replaying recorded streams.
///
/// ```swift
/// let scheduler = ManualOverlayScheduler()
/// let controller = OverlayController(scheduler: scheduler)
/// controller.send(begin)            // stamped at 0
/// scheduler.advance(to: 500)        // runs the grace timer: the overlay shows
/// ```
public final class ManualOverlayScheduler: OverlayScheduler {
    private struct Pending: Sendable {
        var id: Int
        var deadline: Int
        var action: @MainActor @Sendable () -> Void
    }

    private struct Storage: Sendable {
        var time: Int
        var nextID = 0
        var queue: [@MainActor @Sendable () -> Void] = []
        var timers: [Pending] = []
    }

    private let storage: Mutex<Storage>

    /// Creates a scheduler whose time starts at `time`.
    public init(time: Int = 0) {
        storage = Mutex(Storage(time: time))
    }

    public func now() -> Int { storage.withLock { $0.time } }

    public func enqueue(_ action: @escaping @MainActor @Sendable () -> Void) {
        storage.withLock { $0.queue.append(action) }
    }

    public func schedule(at deadline: Int, _ action: @escaping @MainActor @Sendable () -> Void) -> any OverlayTimer {
        let id = storage.withLock { storage in
            storage.nextID += 1
            storage.timers.append(Pending(id: storage.nextID, deadline: deadline, action: action))
            return storage.nextID
        }
        return ManualTimer(scheduler: self, id: id)
    }

    /// The number of timers not yet run or cancelled.
    public var scheduledCount: Int { storage.withLock { $0.timers.count } }

    /// The earliest timer's deadline.
    public var nextDeadline: Int? { storage.withLock { $0.timers.map(\.deadline).min() } }

    /// Runs the enqueued actions, and those they enqueue, without moving time.
    @MainActor
    public func runQueued() {
        while let action = storage.withLock({ $0.queue.isEmpty ? nil : $0.queue.removeFirst() }) {
            action()
        }
    }

    /// Moves time forward to `time`, running each due timer at its own deadline, in order.
    /// Time never moves backwards.
    @MainActor
    public func advance(to time: Int) {
        runQueued()
        while let timer = storage.withLock({ storage -> Pending? in
            guard
                let index = storage.timers.indices.min(by: { storage.timers[$0].deadline < storage.timers[$1].deadline }
                ),
                storage.timers[index].deadline <= time
            else { return nil }
            storage.time = max(storage.time, storage.timers[index].deadline)
            return storage.timers.remove(at: index)
        }) {
            timer.action()
            runQueued()
        }
        storage.withLock { $0.time = max($0.time, time) }
        runQueued()
    }

    /// Moves time forward by `milliseconds`.
    @MainActor
    public func advance(by milliseconds: Int) {
        advance(to: now() + milliseconds)
    }

    fileprivate func cancel(_ id: Int) {
        storage.withLock { $0.timers.removeAll { $0.id == id } }
    }

    private struct ManualTimer: OverlayTimer {
        let scheduler: ManualOverlayScheduler
        let id: Int
        func cancel() { scheduler.cancel(id) }
    }
}
