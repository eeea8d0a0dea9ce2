import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The wall clock as the protocol's `ts`: Unix seconds with microsecond precision.
func wallClockTimestamp() -> Double {
    SystemClock.unixTimestamp()
}

/// The monotonic clock in seconds, for deadlines.
func monotonicSeconds() -> Double {
    SystemClock.monotonicSeconds()
}
