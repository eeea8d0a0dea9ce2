#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts every thread of the package (a display's redraw timer and writer, a plugin relay, the
/// read-ahead of `render`, the SDK's writer and flusher, `run`'s wait for its command, the
/// overlay's drivers): with the signals the package handles blocked in it
/// (``SignalNumbers/handledByThePackage``, the list a spawned child gets back at its defaults,
/// job control aside), so that those signals
/// reach the thread that handles them, and never interrupt a helper's read or poll or run a
/// handler in the middle of a helper's write. Job-control signals (SIGTSTP, SIGTTIN, SIGTTOU)
/// are left as they are: they stop the process from any thread, as they should.
package enum HelperThread {
    private final class Body: Sendable {
        let name: String?
        let run: @Sendable () -> Void
        init(_ name: String?, _ run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    /// A new joinable thread (`pthread_join` it), or `nil` when the system would not make one.
    /// `name` is shown by `ps -L` and debuggers (its first 15 bytes).
    package static func start(named name: String? = nil, _ run: @escaping @Sendable () -> Void) -> pthread_t? {
        let body = Unmanaged.passRetained(Body(name, run))
        // Darwin's pthread_t is a pointer, Linux's a number.
        #if canImport(Darwin)
            var thread: pthread_t? = nil
        #else
            var thread = pthread_t()
        #endif
        let status = pthread_create(
            &thread, nil,
            { raw in
                let body = HelperThread.body(raw)
                var block = sigset_t()
                sigemptyset(&block)
                for signal in SignalNumbers.handledByThePackage { sigaddset(&block, signal) }
                pthread_sigmask(SIG_BLOCK, &block, nil)
                if let name = body.name { HelperThread.setName(name) }
                body.run()
                return nil
            }, body.toOpaque())
        guard status == 0 else {
            body.release()
            return nil
        }
        return thread
    }

    /// The body a new thread was given (its argument is optional on Linux, not on Darwin).
    private static func body(_ raw: UnsafeMutableRawPointer?) -> Body {
        Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
    }

    /// A new thread that nobody joins: it ends on its own. `false` when the system would not
    /// make one.
    package static func detach(named name: String? = nil, _ run: @escaping @Sendable () -> Void) -> Bool {
        guard let thread = start(named: name, run) else { return false }
        pthread_detach(thread)
        return true
    }

    private static func setName(_ name: String) {
        let short = String(decoding: name.utf8.prefix(15), as: UTF8.self)
        #if canImport(Darwin)
            _ = pthread_setname_np(short)
        #else
            _ = setThreadName(pthread_self(), short)
        #endif
    }
}

#if canImport(Glibc) || canImport(Musl)
    /// `pthread_setname_np(3)`, which the Glibc module does not import.
    @_silgen_name("pthread_setname_np")
    func setThreadName(_ thread: pthread_t, _ name: UnsafePointer<CChar>) -> Int32
#endif
