import ActivityPOSIX

/// The wall clock the renderers stamp times with: Unix seconds. Usable from inline code: it is
/// the default clock of the public ``RenderSession/init(renderers:clock:)``.
@usableFromInline
package enum WallClock {
    /// The current time, Unix seconds with sub-microsecond resolution.
    @Sendable @usableFromInline
    package static func now() -> Double {
        SystemClock.unixSeconds()
    }
}
