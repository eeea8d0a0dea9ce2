import ActivityPOSIX
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Small wrappers around the C library that the commands share.
enum POSIX {
    /// The message for an `errno` value.
    static func describe(_ error: Int32) -> String {
        String(cString: strerror(error))
    }

    /// Makes sure descriptors 0, 1 and 2 are open, so that no file or socket opened later takes
    /// their place and receives output meant for a terminal.
    static func ensureStandardDescriptors() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if opened >= 0 && opened != fd {
                dup2(opened, fd)
                close(opened)
            }
        }
    }

    /// The environment as `NAME=value` strings.
    static func environment() -> [String] {
        SystemCall.environment()
    }

    /// A variable of the environment, or `nil`.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Monotonic time in seconds.
    static func monotonicSeconds() -> Double {
        SystemClock.monotonicSeconds()
    }

    /// Wall-clock time as Unix seconds, to the microsecond (the protocol's `ts`).
    static func unixSeconds() -> Double {
        SystemClock.unixTimestamp()
    }

    /// Sleeps for `seconds`, resuming after signal interruptions.
    static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(
            tv_sec: Int(saturating: seconds), tv_nsec: Int(saturating: (seconds - seconds.rounded(.towardZero)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }

    /// 64 random bits from the kernel, as 16 lowercase hex digits.
    static func randomHex() -> String {
        let value = UInt64.random(in: 0...UInt64.max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Whether `fd` is a terminal.
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }
}

extension POSIX {
    /// A pipe whose both ends are close-on-exec, and optionally non-blocking.
    static func makePipe(_ ends: inout [Int32], nonBlocking: Bool = false) -> Bool {
        guard SystemCall.pipe(&ends) else { return false }
        if nonBlocking {
            for fd in ends { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        }
        return true
    }
}
