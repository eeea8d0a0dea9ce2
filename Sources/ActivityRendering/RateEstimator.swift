#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A rate (units per second) and an ETA from absolute progress samples, independent of how often
/// the samples come.
///
/// The estimator is a time-weighted exponential moving average, the model of indicatif's: each
/// interval between two samples contributes its average rate with the weight `1 − 0.1^(Δt/15 s)`,
/// so the past fades to a tenth every 15 seconds whatever the sampling frequency. Two samples a
/// second or two thousand give the same estimate for the same progress over time. The average
/// starts from nothing and is divided by the total weight so far (bias correction), so the first
/// seconds are not biased towards zero. While no progress arrives the estimate decays, as though
/// the time since the last sample had brought none.
///
/// ```swift
/// var rate = RateEstimator()
/// rate.record(completed: 0, at: 100)
/// rate.record(completed: 50, at: 110)
/// rate.rate(at: 110)            // 5.0
/// rate.eta(total: 100, at: 110) // 10.0
/// ```
public struct RateEstimator: Sendable, Hashable {
    /// The time in which old samples fade to a tenth of their weight.
    public static let window = 15.0
    /// How much data the estimator wants before it gives an ETA.
    public static let minimumSpan = 1.0
    /// How long without progress counts as stalled.
    public static let stallAfter = 5.0

    private var smoothed = 0.0
    private var weight = 0.0
    private var lastCompleted = 0.0
    private var lastTime: Double?
    private var firstTime = 0.0
    private var lastAdvance = 0.0

    public init() {}

    /// The fraction of an old value kept after `seconds`.
    @inline(__always)
    static func retention(_ seconds: Double) -> Double {
        seconds <= 0 ? 1 : exp(seconds * logTenthPerWindow)
    }

    /// ln(0.1) / window: `exp(t × this)` is `0.1^(t / window)`, and cheaper than `pow`. A
    /// literal (a test checks it against the formula): a computed static is a lazy global,
    /// checked on every use.
    static let logTenthPerWindow = -0.153_505_672_866_269_7

    /// Records that `completed` units are done at `time` (seconds, any epoch).
    public mutating func record(completed: Double, at time: Double) {
        guard let previous = lastTime else {
            lastTime = time
            firstTime = time
            lastAdvance = time
            lastCompleted = completed
            return
        }
        if completed < lastCompleted {
            // The work went backwards (a restart): the old rate means nothing now.
            self = RateEstimator()
            record(completed: completed, at: time)
            return
        }
        let elapsed = time - previous
        guard elapsed > 0 else {
            // Same instant (or a clock step back): fold the amount into the next interval.
            return
        }
        let delta = completed - lastCompleted
        let keep = Self.retention(elapsed)
        smoothed = smoothed * keep + (delta / elapsed) * (1 - keep)
        weight = weight * keep + (1 - keep)
        lastCompleted = completed
        lastTime = time
        if delta > 0 { lastAdvance = time }
    }

    /// The estimated rate at `now`, in units per second; `nil` before two samples.
    public func rate(at now: Double) -> Double? {
        guard let lastTime, weight > 0 else { return nil }
        let idle = max(0, now - lastTime)
        let keep = Self.retention(idle)
        let total = weight * keep + (1 - keep)
        return (smoothed * keep) / total
    }

    /// Whether progress has stood still for ``stallAfter`` seconds at `now`.
    public func isStalled(at now: Double) -> Bool {
        lastTime != nil && now - lastAdvance >= Self.stallAfter
    }

    /// The seconds left to reach `total` at the estimated rate; `nil` without a total, before
    /// ``minimumSpan`` seconds of data, while stalled or at a rate of zero.
    public func eta(total: Double?, at now: Double) -> Double? {
        guard let total, let lastTime, lastTime - firstTime >= Self.minimumSpan, !isStalled(at: now),
            let rate = rate(at: now), rate > 0
        else { return nil }
        let remaining = max(0, total - lastCompleted)
        return remaining / rate
    }
}
