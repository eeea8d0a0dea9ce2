#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a helper thread (a display's redraw timer and plugin relay, the read-ahead of `render`):
/// joinable, with the signals the process handles blocked in it, so that those signals reach the
/// thread that handles them and never interrupt a helper's read or poll.
package enum HelperThread {
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// The new thread, or `nil` when the system would not make one.
    package static func start(_ run: @escaping @Sendable () -> Void) -> pthread_t? {
        let body = Unmanaged.passRetained(Body(run))
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { raw in
                let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
                var block = sigset_t()
                sigemptyset(&block)
                for signal in [SIGINT, SIGTERM, SIGWINCH, SIGPIPE] { sigaddset(&block, signal) }
                pthread_sigmask(SIG_BLOCK, &block, nil)
                body.run()
                return nil
            }, body.toOpaque())
        guard status == 0 else {
            body.release()
            return nil
        }
        return thread
    }
}
