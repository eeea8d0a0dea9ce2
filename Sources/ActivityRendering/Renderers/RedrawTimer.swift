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

/// A thread that calls `tick` every `interval` seconds, or at once when woken.
final class RedrawTimer: Sendable {
    private final class Context: Sendable {
        let interval: Double
        let wakeRead: Int32
        let stopped = Atomic<Bool>(false)
        let tick: @Sendable () -> Void

        init(interval: Double, wakeRead: Int32, tick: @escaping @Sendable () -> Void) {
            self.interval = interval
            self.wakeRead = wakeRead
            self.tick = tick
        }

        func run() {
            var drain = [UInt8](repeating: 0, count: 64)
            while !stopped.load(ordering: .acquiring) {
                var poller = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
                if poll(&poller, 1, Int32(saturating: interval * 1000)) > 0 {
                    _ = read(wakeRead, &drain, drain.count)
                }
                if stopped.load(ordering: .acquiring) { break }
                tick()
            }
        }
    }

    private let context: Context
    private let thread: pthread_t
    /// The write end of the wake-up pipe.
    let wakeDescriptor: Int32

    init?(interval: Double, tick: @escaping @Sendable () -> Void) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        let context = Context(interval: interval, wakeRead: ends[0], tick: tick)
        guard let thread = HelperThread.start({ context.run() }) else {
            close(ends[0])
            close(ends[1])
            return nil
        }
        self.context = context
        self.thread = thread
        self.wakeDescriptor = ends[1]
    }

    /// Wakes the thread for an immediate tick.
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeDescriptor, &byte, 1)
    }

    /// Stops the thread and waits for it; idempotent. Never call from inside `tick`.
    func stop() {
        guard !context.stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake()
        pthread_join(thread, nil)
        close(wakeDescriptor)
        close(context.wakeRead)
    }
}
