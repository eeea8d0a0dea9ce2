/// Which finished activities leave a permanent line in the terminal display (BuildKit's and
/// Dagger's levels).
public enum Verbosity: String, Sendable, CaseIterable {
    /// Only failures, and the summary.
    case quiet
    /// Top-level activities and failures (the default). Under `activity run`, the command's own
    /// top-level activities count as top-level: the run's activity is a frame around them.
    case normal
    /// Every finished activity.
    case verbose
}
