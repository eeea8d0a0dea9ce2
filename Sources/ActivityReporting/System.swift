#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the producer side needs of the system beyond the calls in `SystemCall`: sockets that
/// never raise SIGPIPE, and the SIGPIPE a failed write raised.
enum System {}

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
