import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The write end of the pipe that signal handlers report to (async-signal-safe: one `write(2)`).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Turns every catchable signal whose default action ends the process (SIGINT, SIGTERM, SIGHUP,
/// SIGQUIT, SIGUSR1, …) into bytes on a pipe, so that a poll loop or a waiting thread handles
/// them as ordinary input, outside the signal handler: `activity` then restores the terminal,
/// stops what it started and removes what it made, and ends by the same signal. Faults (SIGSEGV,
/// SIGABRT, …) are not among them: they are this process's own errors.
///
/// The previous dispositions are restored by ``restore()``; ``dieBy(_:)`` then re-raises a
/// signal so that `activity` ends the way the caller's shell expects (status 128 + N).
enum SignalPipe {
    static let handled: [Int32] = [
        SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGXCPU, SIGXFSZ, SIGPWR,
    ]

    /// The read end: each byte is a signal number.
    nonisolated(unsafe) private(set) static var readEnd: Int32 = -1
    nonisolated(unsafe) private static var previous: [Int32: sigaction] = [:]

    /// Installs the handlers. Returns `false` when the pipe cannot be made.
    @discardableResult
    static func install() -> Bool {
        var ends: [Int32] = [-1, -1]
        guard POSIX.makePipe(&ends, nonBlocking: true) else { return false }
        readEnd = ends[0]
        signalPipeWriteEnd = ends[1]
        for signal in handled {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                let saved = errno
                _ = write(signalPipeWriteEnd, &byte, 1)
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            var old = sigaction()
            sigaction(signal, &action, &old)
            previous[signal] = old
        }
        // A parent may have started us with these signals blocked; they must reach the handler.
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handled { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        return true
    }

    /// Reads the signals that arrived since the last call.
    static func drain() -> [Int32] {
        var bytes = [UInt8](repeating: 0, count: 64)
        var result: [Int32] = []
        while true {
            let count = read(readEnd, &bytes, bytes.count)
            guard count > 0 else { break }
            result += bytes[..<count].map { Int32($0) }
        }
        return result
    }

    /// Puts back the dispositions found at ``install()``.
    static func restore() {
        for (signal, var action) in previous { sigaction(signal, &action, nil) }
        previous.removeAll()
    }

    /// Ends the process by `signal` with its default action, so the parent sees how it ended.
    static func dieBy(_ signal: Int32) -> Never {
        restore()
        SystemCall.resetToDefault(signal)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(signal)
        exit(ExitCode.killed(by: signal))
    }
}
