import ActivityPOSIX
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// For `render`, `replay` and `demo`: on SIGINT, SIGTERM or SIGHUP, finish the display (which
/// restores the terminal and ends open activities as abandoned), then die by the same signal.
///
/// The command's own end goes through ``finish()`` too: a signal often ends the input as well
/// (the producer in the same pipeline was interrupted), and whichever path comes first, the
/// display is finished exactly once, completely, before the process ends by the signal.
final class SignalWatcher: Sendable {
    private let display: SessionDisplay
    private let finishing = Mutex(false)
    private let received = Atomic<Int32>(0)

    private init(display: SessionDisplay) {
        self.display = display
    }

    /// Installs the handlers and starts the thread that waits for them.
    static func start(finishing display: SessionDisplay) -> SignalWatcher {
        let watcher = SignalWatcher(display: display)
        guard SignalPipe.install() else { return watcher }
        let fd = SignalPipe.readEnd
        let started = HelperThread.detach(named: "activity.signals") {
            while true {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, -1) >= 0 || errno == EINTR else { return }
                if let signal = SignalPipe.drain().first {
                    watcher.received.store(signal, ordering: .sequentiallyConsistent)
                    watcher.finish()
                }
            }
        }
        // Nothing would read the pipe: the signals act as they did before, without the summary.
        if !started { SignalPipe.restore() }
        return watcher
    }

    /// Finishes the display once; then, if a signal arrived, ends the process by it.
    func finish() {
        finishing.withLock { finished in
            // A signal handled just before the input ended (it ended because of the signal).
            if let signal = SignalPipe.drain().first { received.store(signal, ordering: .sequentiallyConsistent) }
            if !finished { display.finish() }
            finished = true
        }
        let signal = received.load(ordering: .sequentiallyConsistent)
        if signal != 0 { SignalPipe.dieBy(signal) }
    }
}
