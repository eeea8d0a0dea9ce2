/// What a report shows, decided from a recording's shape alone, before any title is read.
///
/// The page draws at most ``HTMLReportWriter/budget`` bars, lists at most
/// ``HTMLReportWriter/criticalPathRows`` activities of the critical path (the shorter ones between
/// them folded into one row per run), at most ``HTMLReportWriter/failuresListed`` failures and the
/// ``HTMLReportWriter/slowestCount`` slowest activities. ``needed`` is the activities whose text
/// (title, message, logs) the page shows, with their ancestors for the "A › B" paths: the only
/// ones a report of a large recording keeps whole. Its size is bounded by those limits times the
/// nesting depth, whatever the length of the recording.
public struct ReportPlan: Sendable {
    /// A row of the critical-path table.
    public enum PathRow: Sendable, Equatable {
        case activity(Int)
        /// Consecutive activities of the path too short to list, as one row.
        case folded(count: Int, start: Double, end: Double)
    }

    public let skeleton: TimelineSkeleton
    public let layout: TimelineLayout
    public let criticalPath: CriticalPath
    public let bars: TimelineBars
    public let pathRows: [PathRow]
    /// The failed and abandoned activities listed, in begin order, and how many there are in all.
    public let failures: [Int]
    public let failureCount: Int
    public let slowest: [Int]
    /// The longest activity that is not top-level.
    public let longestStep: Int?
    /// The longest member of each aggregate, indexed like ``TimelineBars/aggregates``.
    public let aggregateLongest: [Int]
    /// Every activity whose text the page shows, ascending.
    public let needed: [Int]

    init(_ skeleton: TimelineSkeleton, writer: HTMLReportWriter) {
        self.skeleton = skeleton
        layout = TimelineLayout(skeleton)
        criticalPath = CriticalPath(skeleton)
        bars = TimelineBars(skeleton, layout: layout, criticalPath: criticalPath, budget: writer.budget)
        pathRows = Self.rows(of: criticalPath.activities, in: skeleton, limit: writer.criticalPathRows)
        let failed = (0..<skeleton.count).filter {
            skeleton.outcomes[$0] == .failure || skeleton.outcomes[$0] == .abandoned
        }
        failureCount = failed.count
        failures = Array(failed.prefix(writer.failuresListed))
        let durations = (0..<skeleton.count).map(skeleton.duration)
        slowest = Array(
            (0..<skeleton.count).sorted { (durations[$1], $0) < (durations[$0], $1) }.prefix(writer.slowestCount))
        longestStep = (0..<skeleton.count).filter { skeleton.parent($0) != nil }
            .max { durations[$0] < durations[$1] }
        aggregateLongest = bars.aggregates.map { aggregate in
            aggregate.members.max { durations[$0] < durations[$1] }!
        }
        var needed = Set(bars.shown)
        needed.formUnion(failures)
        needed.formUnion(slowest)
        needed.formUnion(aggregateLongest)
        for row in pathRows { if case .activity(let index) = row { needed.insert(index) } }
        if let longestStep { needed.insert(longestStep) }
        if let first = skeleton.roots.first { needed.insert(first) }
        for index in Array(needed) {
            var parent = skeleton.parent(index)
            while let at = parent, needed.insert(at).inserted { parent = skeleton.parent(at) }
        }
        self.needed = needed.sorted()
    }

    /// The path's rows: all of it up to `limit` activities; past it the `limit` longest, each run
    /// of the others between them folded into one row.
    private static func rows(of path: [Int], in skeleton: TimelineSkeleton, limit: Int) -> [PathRow] {
        guard path.count > limit else { return path.map(PathRow.activity) }
        let kept = Set(
            path.indices.sorted { (skeleton.duration(path[$1]), $0) < (skeleton.duration(path[$0]), $1) }
                .prefix(max(0, limit)))
        var rows: [PathRow] = []
        for position in path.indices {
            let index = path[position]
            if kept.contains(position) {
                rows.append(.activity(index))
            } else if case .folded(let count, let start, let end)? = rows.last {
                rows[rows.count - 1] = .folded(
                    count: count + 1, start: min(start, skeleton.starts[index]), end: max(end, skeleton.ends[index]))
            } else {
                rows.append(.folded(count: 1, start: skeleton.starts[index], end: skeleton.ends[index]))
            }
        }
        return rows
    }
}
