import ActivityPOSIX
import ActivityTerminal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns every catchable signal whose default action ends the process (SIGINT, SIGTERM, SIGHUP,
/// SIGQUIT, SIGUSR1, …: `ProcessSignals.terminating`) into bytes on a pipe, through the process's
/// one set of handlers, so that a poll loop or a waiting thread handles them as ordinary input,
/// outside the signal handler: `activity` then restores the terminal, stops what it started and
/// removes what it made, and ends by the same signal.
///
/// ``restore()`` gives the signals up; ``dieBy(_:)`` then re-raises a signal so that `activity`
/// ends the way the caller's shell expects (status 128 + N).
enum SignalPipe {
    static let handled: [Int32] = ProcessSignals.terminating

    /// The read end: each byte is a signal number.
    nonisolated(unsafe) private(set) static var readEnd: Int32 = -1
    nonisolated(unsafe) private static var claimed: [Int32] = []

    /// Installs the handlers. Returns `false` when the pipe cannot be made.
    @discardableResult
    static func install() -> Bool {
        var ends: [Int32] = [-1, -1]
        guard SystemCall.pipe(&ends, nonBlocking: true) else { return false }
        readEnd = ends[0]
        claimed = ProcessSignals.deliver(handled, to: ends[1])
        return true
    }

    /// Reads the signals that arrived since the last call.
    static func drain() -> [Int32] {
        var bytes = [UInt8](repeating: 0, count: 64)
        var result: [Int32] = []
        while case .bytes(let count)? = try? SystemCall.read(readEnd, into: &bytes) {
            result += bytes[..<count].map { Int32($0) }
        }
        return result
    }

    /// Gives up the signals: the dispositions found at ``install()`` are back.
    static func restore() {
        ProcessSignals.stopDelivering(claimed)
        claimed = []
    }

    /// Ends the process by `signal` with its default action, so the parent sees how it ended;
    /// without a core file for a signal whose action dumps one.
    static func dieBy(_ signal: Int32) -> Never {
        restore()
        if SystemCall.dumpsCore(signal) { SystemCall.disableCoreDumps() }
        SystemCall.resetToDefault(signal)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(signal)
        exit(ExitCode.killed(by: signal))
    }
}
