import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// For `render`, `replay` and `demo`: on SIGINT, SIGTERM or SIGHUP, finish the display (which
/// restores the terminal and ends open activities as abandoned), then die by the same signal.
enum SignalWatcher {
    static func start(finishing display: any Display) {
        guard SignalPipe.install() else { return }
        let fd = SignalPipe.readEnd
        DispatchQueue(label: "activity.signals").async {
            while true {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, -1) >= 0 || errno == EINTR else { return }
                if let signal = SignalPipe.drain().first {
                    display.finish()
                    SignalPipe.dieBy(signal)
                }
            }
        }
    }
}
