import ActivityWire

/// What a report shows, decided from a recording's shape alone, before any title is read.
///
/// The page draws at most ``HTMLReportWriter/budget`` bars, lists at most
/// ``HTMLReportWriter/criticalPathRows`` activities of the critical path (the shorter ones between
/// them folded into one row per run), at most ``HTMLReportWriter/failuresListed`` failures and the
/// ``HTMLReportWriter/slowestCount`` slowest activities, and names the longest member of the
/// ``HTMLReportWriter/namedAggregates`` aggregate bars of the most members. ``needed`` is the
/// activities whose text (title, message, logs) the page shows, with the ancestors their
/// "A › B" paths name (at most ``maxPathTitles`` a path): the only ones a report of a large
/// recording keeps whole. Its size is at most ``textBudget``, whatever the length of the recording.
public struct ReportPlan: Sendable {
    /// A row of the critical-path table.
    public enum PathRow: Sendable, Equatable {
        case activity(Int)
        /// Consecutive activities of the path too short to list, as one row.
        case folded(count: Int, start: Double, end: Double)
    }

    /// How many titles an "A › B" path shows: the top-level activity's and those nearest the
    /// activity, with "…" between them when there are more.
    public static let maxPathTitles = 16

    public let skeleton: TimelineSkeleton
    package let layout: TimelineLayout
    public let criticalPath: CriticalPath
    package let bars: TimelineBars
    public let pathRows: [PathRow]
    /// The failed and abandoned activities listed, in begin order, and how many there are in all.
    public let failures: [Int]
    public let failureCount: Int
    public let slowest: [Int]
    /// The longest activity that is not top-level.
    public let longestStep: Int?
    /// The longest member of each aggregate, indexed like ``TimelineBars/aggregates``; `nil` for
    /// those past the ``HTMLReportWriter/namedAggregates`` of the most members.
    public let aggregateLongest: [Int?]
    /// Every activity whose text the page shows, ascending.
    public let needed: [Int]
    /// The most activities ``needed`` can hold for these limits, whatever the recording.
    public let textBudget: Int

    init(_ skeleton: TimelineSkeleton, writer: HTMLReportWriter) {
        self.skeleton = skeleton
        let drawing = TimelineDrawing(skeleton, budget: writer.budget)
        layout = drawing.layout
        criticalPath = drawing.criticalPath
        let bars = drawing.bars
        self.bars = bars
        pathRows = Self.rows(of: criticalPath.activities, in: skeleton, limit: writer.criticalPathRows)
        let failed = (0..<skeleton.count).filter {
            skeleton.outcomes[$0] == .failure || skeleton.outcomes[$0] == .abandoned
        }
        failureCount = failed.count
        failures = Array(failed.prefix(max(0, writer.failuresListed)))
        let durations = (0..<skeleton.count).map(skeleton.duration)
        slowest = Array(
            (0..<skeleton.count).sorted { (durations[$1], $0) < (durations[$0], $1) }
                .prefix(max(0, writer.slowestCount)))
        longestStep = (0..<skeleton.count).filter { skeleton.parent($0) != nil }
            .max { durations[$0] < durations[$1] }
        // The aggregates of the most members name their longest member; the others only count.
        let aggregates = bars.aggregates
        let named = Set(
            aggregates.indices.sorted { (aggregates[$1].members.count, $0) < (aggregates[$0].members.count, $1) }
                .prefix(max(0, writer.namedAggregates)))
        aggregateLongest = aggregates.indices.map { number in
            guard named.contains(number) else { return nil }
            return aggregates[number].members.max { durations[$0] < durations[$1] }
        }
        // Bars bring their ancestors already; failures and the slowest name theirs in their paths.
        var needed = Set(bars.shown)
        for index in failures + slowest { needed.formUnion([index] + Self.titledAncestors(of: index, in: skeleton)) }
        needed.formUnion(aggregateLongest.compactMap { $0 })
        for row in pathRows { if case .activity(let index) = row { needed.insert(index) } }
        if let longestStep { needed.insert(longestStep) }
        if let first = skeleton.roots.first { needed.insert(first) }
        self.needed = needed.sorted()
        textBudget =
            max(0, writer.budget) + (max(0, writer.failuresListed) + max(0, writer.slowestCount)) * Self.maxPathTitles
            + max(0, writer.criticalPathRows) + max(0, writer.namedAggregates) + 2
    }

    /// The ancestors of `index` whose titles its path shows, nearest first: all of them up to
    /// ``maxPathTitles`` titles in all; past it, the nearest and the top-level one.
    public static func titledAncestors(of index: Int, in skeleton: TimelineSkeleton) -> [Int] {
        var ancestors: [Int] = []
        var parent = skeleton.parent(index)
        while let at = parent, ancestors.count < maxPathTitles - 2 {
            ancestors.append(at)
            parent = skeleton.parent(at)
        }
        guard var top = parent else { return ancestors }
        while let above = skeleton.parent(top) { top = above }
        ancestors.append(top)
        return ancestors
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
