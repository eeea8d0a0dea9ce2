/// How long activities took before, by title path, for estimates like nix-output-monitor's:
/// an indeterminate activity shows "usually 2m10s" and an ETA from it, and the closing summary
/// names the steps that were slower than usual.
///
/// An activity's *path* is its titles from the top-level activity down, so `Build › Compile`
/// in one run and the next are the same step. Each path keeps the durations of its last
/// ``durationsKept`` successful runs (its usual duration is their median, which one odd run
/// does not move), how far its last run went, and when that run ended. At most ``maxEntries``
/// paths are kept: those that ran longest ago give way.
///
/// ```swift
/// var history = ActivityHistory()
/// history.record(path: ["Build", "Compile"], duration: 130, completed: 42, total: nil, endedAt: now)
/// history.entry(for: ["Build", "Compile"])?.usualDuration   // 130
/// ActivityHistory.isSlower(200, thanUsual: 130)             // true
/// ```
public struct ActivityHistory: Sendable, Hashable {
    /// What is known of one path.
    public struct Entry: Sendable, Hashable {
        /// The titles from the top-level activity down.
        public var path: [String]
        /// The durations of the last successful runs, in seconds, oldest first.
        public var durations: [Double]
        /// How far the last run went: its final completed amount and total.
        public var completed: Double
        public var total: Double?
        /// When the last run ended, Unix seconds.
        public var lastEnded: Double

        /// The usual duration: the median of the kept durations (the lower middle one of an
        /// even number, so a single slow run among two does not count as usual).
        public var usualDuration: Double {
            let sorted = durations.sorted()
            guard !sorted.isEmpty else { return 0 }
            return sorted[(sorted.count - 1) / 2]
        }
    }

    /// How many runs of each path are remembered.
    public static let durationsKept = 5
    /// How many paths are remembered: a file of this many (about 200 KiB) is read at every start
    /// and written at every end of a session, which takes about 8 ms more for it.
    public static let maxEntries = 2_000

    /// The entries by key (the titles joined with line feeds, which sanitized titles never hold).
    public internal(set) var entries: [String: Entry] = [:]

    public init() {}

    /// Whether nothing is known.
    public var isEmpty: Bool { entries.isEmpty }

    /// What joins the titles of a path in its key.
    static let keySeparator = "\n"

    /// The key of a path.
    static func key(_ path: [String]) -> String { path.joined(separator: keySeparator) }

    /// What is known of `path`, if anything.
    public func entry(for path: [String]) -> Entry? { entries[Self.key(path)] }

    /// What is known of the path whose key is `key`, if anything.
    func entry(forKey key: String) -> Entry? { entries[key] }

    /// Remembers one successful run of `path`.
    public mutating func record(path: [String], duration: Double, completed: Double, total: Double?, endedAt: Double) {
        guard !path.isEmpty else { return }
        record(
            key: Self.key(path), path: path, duration: duration, completed: completed, total: total, endedAt: endedAt)
    }

    /// Remembers one successful run of the path whose key is `key`; `path` makes the titles,
    /// asked for only when the path is new.
    mutating func record(
        key: String, path: @autoclosure () -> [String], duration: Double, completed: Double, total: Double?,
        endedAt: Double
    ) {
        guard duration.isFinite, duration >= 0 else { return }
        var entry =
            entries[key] ?? Entry(path: path(), durations: [], completed: completed, total: total, lastEnded: endedAt)
        entry.durations.append(duration)
        if entry.durations.count > Self.durationsKept { entry.durations.removeFirst() }
        entry.completed = completed
        entry.total = total
        entry.lastEnded = max(entry.lastEnded, endedAt)
        entries[key] = entry
    }

    /// Adds `newer`'s runs to these: each path's durations follow the ones kept here, its last
    /// run is `newer`'s. Then the paths that ran longest ago give way, down to ``maxEntries``.
    public mutating func merge(_ newer: ActivityHistory) {
        for (key, run) in newer.entries {
            guard var entry = entries[key] else {
                entries[key] = run
                continue
            }
            entry.durations = Array((entry.durations + run.durations).suffix(Self.durationsKept))
            entry.completed = run.completed
            entry.total = run.total
            entry.lastEnded = max(entry.lastEnded, run.lastEnded)
            entries[key] = entry
        }
        evict()
    }

    /// Keeps the ``maxEntries`` paths that ran most recently.
    mutating func evict(keeping limit: Int = ActivityHistory.maxEntries) {
        guard entries.count > limit else { return }
        let newest = entries.sorted { $0.value.lastEnded > $1.value.lastEnded }.prefix(limit)
        entries = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
    }

    /// Whether a run of `duration` seconds was slower than usual: at least half as long again as
    /// `usual`, and at least 2 seconds longer (a step of 0.2 s that took 0.4 s is no news).
    public static func isSlower(_ duration: Double, thanUsual usual: Double) -> Bool {
        duration >= 1.5 * usual && duration - usual >= 2
    }

    /// The seconds left for an activity of `path` that has run `elapsed` seconds, by its usual
    /// duration; `nil` when nothing is known or it has run longer than usual.
    public func remaining(for path: [String], elapsed: Double) -> Double? {
        guard let usual = entry(for: path)?.usualDuration, usual > elapsed else { return nil }
        return usual - elapsed
    }
}
