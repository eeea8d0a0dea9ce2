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
        let wakeUp: WakeUpPipe
        let stopped = Atomic<Bool>(false)
        let tick: @Sendable () -> Void

        init(interval: Double, wakeUp: WakeUpPipe, tick: @escaping @Sendable () -> Void) {
            self.interval = interval
            self.wakeUp = wakeUp
            self.tick = tick
        }

        func run() {
            while !stopped.load(ordering: .acquiring) {
                var poller = pollfd(fd: wakeUp.readEnd, events: Int16(POLLIN), revents: 0)
                if poll(&poller, 1, Int32(saturating: interval * 1000)) > 0 { wakeUp.drain() }
                if stopped.load(ordering: .acquiring) { break }
                tick()
            }
        }
    }

    private let context: Context
    private let thread: pthread_t

    init?(interval: Double, tick: @escaping @Sendable () -> Void) {
        guard let wakeUp = try? WakeUpPipe() else { return nil }
        let context = Context(interval: interval, wakeUp: wakeUp, tick: tick)
        guard let thread = HelperThread.start({ context.run() }) else {
            wakeUp.close()
            return nil
        }
        self.context = context
        self.thread = thread
    }

    /// Wakes the thread for an immediate tick.
    func wake() {
        context.wakeUp.wake()
    }

    /// The descriptor `wake()` writes, for the terminal claim's signal handlers.
    var wakeDescriptor: Int32 { context.wakeUp.writeEnd }

    /// Stops the thread and waits for it; idempotent. Never call from inside `tick`.
    func stop() {
        guard !context.stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake()
        pthread_join(thread, nil)
        context.wakeUp.close()
    }
}
