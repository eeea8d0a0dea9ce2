#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C library calls whose Swift names clash with methods of ours (`close`, `write`, `open`,
/// `connect`), spelled once for every platform.
enum System {
    @inline(__always)
    static func write(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
            Darwin.write(fd, pointer, count)
        #elseif canImport(Glibc)
            Glibc.write(fd, pointer, count)
        #else
            Musl.write(fd, pointer, count)
        #endif
    }

    @inline(__always)
    static func read(_ fd: Int32, _ pointer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
            Darwin.read(fd, pointer, count)
        #elseif canImport(Glibc)
            Glibc.read(fd, pointer, count)
        #else
            Musl.read(fd, pointer, count)
        #endif
    }

    @discardableResult
    static func close(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
            Darwin.close(fd)
        #elseif canImport(Glibc)
            Glibc.close(fd)
        #else
            Musl.close(fd)
        #endif
    }

    static func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Darwin)
            Darwin.open(path, flags, mode)
        #elseif canImport(Glibc)
            Glibc.open(path, flags, mode)
        #else
            Musl.open(path, flags, mode)
        #endif
    }

    static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Darwin)
            Darwin.connect(fd, address, length)
        #elseif canImport(Glibc)
            Glibc.connect(fd, address, length)
        #else
            Musl.connect(fd, address, length)
        #endif
    }
}

/// The wall clock as the protocol's `ts`: Unix seconds with microsecond precision.
func wallClockTimestamp() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec / 1000) / 1_000_000
}

/// The monotonic clock in seconds, for deadlines.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
}

extension System {
    /// A new Unix stream socket, closed on `exec`, that never raises `SIGPIPE`.
    static func streamSocket() -> Int32 {
        #if canImport(Darwin)
            let fd = socket(AF_UNIX, SOCK_STREAM, 0)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                var one: Int32 = 1
                _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            return fd
        #else
            return socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #endif
    }

    /// The flags of every `send(2)`: never wait, and never raise `SIGPIPE` where the system allows.
    static var sendFlags: Int32 {
        #if canImport(Darwin)
            MSG_DONTWAIT
        #else
            Int32(MSG_NOSIGNAL | MSG_DONTWAIT)
        #endif
    }

    /// Takes the `SIGPIPE` a failed write raised for this thread (which blocks it), so that it is
    /// never delivered to the process.
    static func consumePendingSIGPIPE(_ set: inout sigset_t) {
        #if canImport(Darwin)
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var signal: Int32 = 0
                sigwait(&set, &signal)
            }
        #else
            var none = timespec()
            _ = sigtimedwait(&set, nil, &none)
        #endif
    }
}
