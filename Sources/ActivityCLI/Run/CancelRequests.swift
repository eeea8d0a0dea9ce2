import ActivityPOSIX
import ActivityWire
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The cancels the person asks for in the display (Esc in the terminal overlay), on their way from
/// the display's thread to `activity run`'s poll loop, which sends each back to the reporter that
/// began the activity (``ConnectionTracker/cancel(_:)``). A cancel for the command's own activity
/// interrupts the command instead: SIGINT to its process group.
final class CancelRequests: Sendable {
    private let pending = Mutex<[ActivityID]>([])
    private let group = Atomic<Int32>(0)
    /// Wakes the poll loop (`nil` when no pipe could be made: no cancel reaches it then).
    let wakeUp = try? WakeUpPipe()

    deinit { wakeUp?.close() }

    /// The command's process group, once it runs.
    func set(_ pid: Int32) { group.store(pid, ordering: .sequentiallyConsistent) }

    /// Called from the display's thread.
    func request(_ ids: [ActivityID]) {
        pending.withLock { $0 += ids }
        wakeUp?.wake()
    }

    /// The cancels asked for since the last call. Called by the poll loop when ``wakeUp`` is
    /// readable.
    func take() -> [ActivityID] {
        wakeUp?.drain()
        return pending.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
    }

    /// Interrupts the whole command, as Ctrl-C would.
    func interrupt() {
        let pid = group.load(ordering: .sequentiallyConsistent)
        if pid > 0 { kill(-pid, SIGINT) }
    }
}
