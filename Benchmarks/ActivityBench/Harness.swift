import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One figure of the benchmark: several runs of the same measurement, and the target it is held to.
struct Figure: Sendable, Codable {
    enum Better: String, Sendable, Codable { case lower, higher }

    var name: String
    var unit: String
    var runs: [Double]
    /// The target the figure is held to (Benchmarks/README.md, "Targets"), when there is one.
    var target: Double?
    var better: Better
    /// A reference figure from another library on this kind of machine, for the table.
    var anchor: String?
    var note: String?

    var median: Double {
        let sorted = runs.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
    var min: Double { runs.min() ?? .nan }
    var max: Double { runs.max() ?? .nan }

    /// Whether the median reaches the target; `nil` without one.
    var meetsTarget: Bool? {
        guard let target else { return nil }
        return better == .lower ? median <= target : median >= target
    }
}

/// How hard to measure.
struct BenchSettings: Sendable, Codable {
    var runs: Int
    var scale: Double  // 1 for full runs, smaller for --quick

    func iterations(_ full: Int) -> Int { Swift.max(1, Int(Double(full) * scale)) }
}

/// A monotonic clock in nanoseconds.
@inline(__always)
func nowNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// CPU time (user + system) of this process, in seconds.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
        + Double(usage.ru_stime.tv_usec) / 1e6
}

/// Runs `body` once to warm up, then `settings.runs` times, and returns each run's result.
func repeated(_ settings: BenchSettings, _ body: () throws -> Double) rethrows -> [Double] {
    _ = try body()
    return try (0..<settings.runs).map { _ in try body() }
}

/// Nanoseconds per call of `body`, over `iterations` calls.
@inline(__always)
func nanosecondsPerCall(_ iterations: Int, _ body: (Int) -> Void) -> Double {
    let start = nowNanoseconds()
    for i in 0..<iterations { body(i) }
    return Double(nowNanoseconds() - start) / Double(iterations)
}

/// Nanoseconds of wall time per call on each of `threads` threads, each making `iterations`
/// calls at once: what sharing one counter costs.
func contendedNanosecondsPerCall(threads: Int, iterations: Int, _ body: @Sendable () -> Void) -> Double {
    let start = nowNanoseconds()
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
        for _ in 0..<iterations { body() }
    }
    return Double(nowNanoseconds() - start) / Double(iterations)
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// `1 M`, `20 k` or `300`: a count as the figures' names show it.
func countText(_ count: Int) -> String {
    if count >= 1_000_000, count % 1_000_000 == 0 { return "\(count / 1_000_000) M" }
    if count >= 1000, count % 1000 == 0 { return "\(count / 1000) k" }
    return "\(count)"
}
