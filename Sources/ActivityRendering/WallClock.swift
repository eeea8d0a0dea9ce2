import ActivityPOSIX

/// The wall clock the renderers stamp times with: Unix seconds.
public enum WallClock {
    /// The current time, Unix seconds with sub-microsecond resolution.
    @Sendable
    public static func now() -> Double {
        SystemClock.unixSeconds()
    }
}
