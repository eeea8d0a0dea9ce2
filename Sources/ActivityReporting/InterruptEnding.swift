import ActivityPOSIX
import ActivityTerminal
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ActivitySystem {
    /// Ends the open activities as `cancelled` when the process gets SIGINT (Ctrl-C) or SIGTERM,
    /// then lets the signal act: opt-in, once, at start-up.
    ///
    /// Without it, an interrupted program dies with its activities open, and a consumer shows
    /// them `abandoned`. With it, the handler (the process's one set, shared with the terminal
    /// displays) only writes a byte; a thread of the SDK then ends every open activity of this
    /// process, children before their parents, with the message `interrupted`, flushes (at most
    /// half a second), puts back the signal's previous action and sends the signal again: the
    /// process ends by it (status 130 for SIGINT) or, if it had a handler of its own installed
    /// before, that handler runs. A second signal while the activities end takes that previous
    /// action at once.
    ///
    /// ```swift
    /// ActivitySystem.endActivitiesOnInterrupt()
    /// ```
    public static func endActivitiesOnInterrupt() {
        InterruptEnding.install()
    }
}

enum InterruptEnding {
    static let signals = [SIGINT, SIGTERM]
    private static let installed = Atomic<Bool>(false)

    static func install() {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var ends: [Int32] = []
        guard SystemCall.pipe(&ends) else {
            Warnings.once(.interruptEnding, "cannot end activities on Ctrl-C: \(SystemError.reason(errno))")
            return
        }
        // The handler must never block on the pipe; the thread that reads it may.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let readEnd = ends[0]
        // A signal ignored at start-up (a job started in the background) stays ignored.
        let claimed = ProcessSignals.deliver(signals.filter { !ProcessSignals.isIgnored($0) }, to: ends[1])
        let started = HelperThread.start {
            var byte: [UInt8] = [0]
            while (try? SystemCall.read(readEnd, into: &byte)) != .bytes(1) {}
            ProcessSignals.stopDelivering(claimed)
            Flusher.shared.endAll(status: .cancelled, message: "interrupted")
            ActivitySystem.flush(timeout: 0.5)
            kill(getpid(), Int32(byte[0]))
        }
        if started == nil {
            ProcessSignals.stopDelivering(claimed)
            Warnings.once(.interruptEnding, "cannot end activities on Ctrl-C: no thread")
        }
    }
}
