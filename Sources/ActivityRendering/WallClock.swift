import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The wall clock the renderers stamp times with: Unix seconds.
public enum WallClock {
    /// The current time, Unix seconds with sub-microsecond resolution.
    @Sendable
    public static func now() -> Double {
        SystemClock.unixSeconds()
    }
}
