#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The clocks, read in one place.
package enum SystemClock {
    /// Seconds on a clock that never goes back, for deadlines and intervals.
    package static func monotonicSeconds() -> Double {
        seconds(of: CLOCK_MONOTONIC)
    }

    /// Unix seconds, to the nanosecond the system gives.
    package static func unixSeconds() -> Double {
        seconds(of: CLOCK_REALTIME)
    }

    /// Unix seconds to the microsecond: the protocol's `ts` as the producers write it, so that a
    /// stamp prints in the digits it holds.
    package static func unixTimestamp() -> Double {
        let now = read(CLOCK_REALTIME)
        return Double(now.tv_sec) + Double(now.tv_nsec / 1000) / 1_000_000
    }

    /// Sleeps for `seconds`, going on after a signal interrupts it.
    package static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        // At most 31 years, so that the nanoseconds are an integer `Int` holds.
        let nanoseconds = Int(exactly: (min(seconds, 1e9) * 1e9).rounded(.towardZero)) ?? 0
        var request = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }

    /// Sleeps for `nanoseconds` (less than a second) once, with `nanosleep` alone: async-signal-safe,
    /// for the waits of a signal handler. A signal that interrupts it ends it early.
    package static func sleepInSignalHandler(nanoseconds: Int) {
        var pause = timespec(tv_sec: 0, tv_nsec: min(max(nanoseconds, 0), 999_999_999))
        nanosleep(&pause, nil)
    }

    private static func seconds(of clock: clockid_t) -> Double {
        let now = read(clock)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
    }

    private static func read(_ clock: clockid_t) -> timespec {
        var now = timespec()
        clock_gettime(clock, &now)
        return now
    }
}
