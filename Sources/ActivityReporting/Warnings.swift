import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One-time warnings about bad input, written to standard error.
///
/// Bad numbers and bad settings never crash the program and never stop the report: the value is
/// clamped or ignored, and the first occurrence of each kind of problem prints one line, so a
/// tight loop that passes a negative delta does not flood the terminal.
enum Warnings {
    enum Kind: Int, CaseIterable {
        case negativeAdvance
        case nonFiniteNumber
        case negativeNumber
        case hugeNumber
        case badSinkSetting
        case badParentSetting
        case bootstrapTwice
        case invalidAttribute
    }

    private static let issued = Atomic<Int>(0)

    /// Writes `message` to standard error, unless a warning of this kind was already written.
    static func once(_ kind: Kind, _ message: @autoclosure () -> String) {
        let bit = 1 << kind.rawValue
        let before = issued.bitwiseOr(bit, ordering: .relaxed).oldValue
        guard before & bit == 0 else { return }
        write("swift-activity: warning: \(message()) (shown once)\n")
    }

    /// Writes `text` to standard error with one `write(2)`, ignoring failures.
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            _ = System.write(2, buffer.baseAddress, buffer.count)
        }
    }
}

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

/// Numbers as the protocol allows them: finite, ≥ 0, ≤ 2^53.
enum Numbers {
    /// The count or total as the wire may carry it, or `nil` to ignore it; warns once.
    static func sanitized(_ value: Double, what: String) -> Double? {
        guard value.isFinite else {
            Warnings.once(.nonFiniteNumber, "\(what) \(value) ignored: counts must be finite numbers")
            return nil
        }
        if value < 0 {
            Warnings.once(.negativeNumber, "\(what) \(value) clamped to 0: counts are never negative")
            return 0
        }
        if value > maxCount {
            Warnings.once(.hugeNumber, "\(what) \(value) clamped to 2^53, the largest exact count")
            return maxCount
        }
        return value
    }

    static let maxCount: Double = 9_007_199_254_740_992
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
