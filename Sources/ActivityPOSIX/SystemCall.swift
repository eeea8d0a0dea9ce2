#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C library's calls under names of their own, for code inside types that have a method of
/// the same name (`write`, `close`, `accept`): one place, for the whole package, that knows which
/// module holds them, so everything compiles against Glibc, Musl and Darwin alike.
package enum SystemCall {
    package static func write(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(fd, bytes, count)
        #elseif canImport(Musl)
            Musl.write(fd, bytes, count)
        #else
            Darwin.write(fd, bytes, count)
        #endif
    }

    @discardableResult
    package static func close(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(fd)
        #elseif canImport(Musl)
            Musl.close(fd)
        #else
            Darwin.close(fd)
        #endif
    }

    /// The bare `read(2)`: other modules read with ``read(_:into:dontWait:)``, whose result says
    /// what happened.
    static func read(_ fd: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.read(fd, bytes, count)
        #elseif canImport(Musl)
            Musl.read(fd, bytes, count)
        #else
            Darwin.read(fd, bytes, count)
        #endif
    }

    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc)
            Glibc.open(path, flags, mode)
        #elseif canImport(Musl)
            Musl.open(path, flags, mode)
        #else
            Darwin.open(path, flags, mode)
        #endif
    }

    package static func open(_ path: String, _ flags: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.open(path, flags)
        #elseif canImport(Musl)
            Musl.open(path, flags)
        #else
            Darwin.open(path, flags)
        #endif
    }

    package static func accept(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.accept(fd, nil, nil)
        #elseif canImport(Musl)
            Musl.accept(fd, nil, nil)
        #else
            Darwin.accept(fd, nil, nil)
        #endif
    }

    package static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
            Glibc.connect(fd, address, length)
        #elseif canImport(Musl)
            Musl.connect(fd, address, length)
        #else
            Darwin.connect(fd, address, length)
        #endif
    }

    package static func send(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
        #if canImport(Glibc)
            Glibc.send(fd, bytes, count, flags)
        #elseif canImport(Musl)
            Musl.send(fd, bytes, count, flags)
        #else
            Darwin.send(fd, bytes, count, flags)
        #endif
    }

    /// Whether the default action of `signal` is to dump core (POSIX's "A" signals).
    package static func dumpsCore(_ signal: Int32) -> Bool {
        [SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGXCPU, SIGXFSZ, SIGSYS].contains(signal)
    }

    /// No core file for this process from now on (a process that ends itself by the signal that
    /// killed its child must not leave a core of its own).
    package static func disableCoreDumps() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        #if canImport(Glibc)
            _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        #else
            _ = setrlimit(RLIMIT_CORE, &none)
        #endif
    }

    /// Puts back the default action for `signal`.
    package static func resetToDefault(_ signal: Int32) {
        #if canImport(Glibc)
            _ = Glibc.signal(signal, SIG_DFL)
        #elseif canImport(Musl)
            _ = Musl.signal(signal, SIG_DFL)
        #else
            _ = Darwin.signal(signal, SIG_DFL)
        #endif
    }

    /// A pipe whose two ends are close-on-exec from the start: no child that another thread
    /// spawns meanwhile inherits one (`pipe` then `fcntl` leaves that moment), and both
    /// non-blocking when asked. Where `pipe2` is missing (Darwin), `pipe` and `fcntl`.
    package static func pipe(_ ends: inout [Int32], nonBlocking: Bool = false) -> Bool {
        ends = [-1, -1]
        #if canImport(Glibc) || canImport(Musl)
            let flags = O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)
            return ends.withUnsafeMutableBufferPointer { pipeWithFlags($0.baseAddress!, flags) } == 0
        #else
            guard Darwin.pipe(&ends) == 0 else { return false }
            for fd in ends {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                if nonBlocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
            }
            return true
        #endif
    }
}

#if canImport(Glibc) || canImport(Musl)
    /// `pipe2(2)`, which the Glibc module does not import.
    @_silgen_name("pipe2")
    func pipeWithFlags(_ ends: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32
#endif
