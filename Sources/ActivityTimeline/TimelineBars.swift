import ActivityWire

/// Which activities a drawing shows as bars of their own, and which it folds into aggregates.
///
/// Up to `budget` activities, every one is a bar. Past it (a recording of 100,000 compile
/// steps), `budget` activities keep their bars: failures first, then the critical path, then
/// the longest, each with its ancestors; the rest, too short to see at the drawing's scale, are merged per row:
/// neighbours closer than ``mergeGap`` of the total time become one aggregate bar that says
/// how many activities it holds.
package struct TimelineBars: Sendable {
    /// Several activities drawn as one bar.
    package struct Aggregate: Sendable {
        package var row: Int
        package var start: Double
        package var end: Double
        /// The activities it holds, by start time.
        package var members: [Int]
    }

    /// The default number of bars of their own: enough for any build a person reads bar by bar,
    /// few enough for a browser to zoom and scroll smoothly.
    package static let defaultBudget = 10_000
    /// Hidden activities closer than this fraction of the whole time merge into one aggregate.
    package static let mergeGap = 0.002

    /// The activities drawn as bars, in the order they began.
    package let shown: [Int]
    package let aggregates: [Aggregate]

    package init(_ timeline: Timeline, layout: TimelineLayout, criticalPath: CriticalPath, budget: Int = defaultBudget)
    {
        self.init(TimelineSkeleton(timeline), layout: layout, criticalPath: criticalPath, budget: budget)
    }

    package init(
        _ skeleton: TimelineSkeleton, layout: TimelineLayout, criticalPath: CriticalPath, budget: Int = defaultBudget
    ) {
        let count = skeleton.count
        guard count > budget else {
            shown = Array(0..<count)
            aggregates = []
            return
        }
        // Failures first, then the critical path, then the longest, each with the ancestors not
        // yet drawn (so a bar's "A › B" names only drawn bars): at most `budget` in all.
        func rank(_ index: Int) -> Int {
            skeleton.outcomes[index] == .failure ? 0 : criticalPath.contains(index) ? 1 : 2
        }
        let ranks = (0..<count).map(rank)
        let durations = (0..<count).map(skeleton.duration)
        let candidates = (0..<count).sorted { (ranks[$0], durations[$1], $0) < (ranks[$1], durations[$0], $1) }
        var visible = [Bool](repeating: false, count: count)
        var visibleCount = 0
        for index in candidates where !visible[index] {
            guard visibleCount < budget else { break }
            var drawn = [index]
            var parent = skeleton.parent(index)
            while let at = parent, !visible[at] {
                drawn.append(at)
                parent = skeleton.parent(at)
            }
            guard visibleCount + drawn.count <= budget else { continue }
            for at in drawn { visible[at] = true }
            visibleCount += drawn.count
        }
        shown = (0..<count).filter { visible[$0] }
        var byRow: [Int: [Int]] = [:]
        for index in 0..<count where !visible[index] { byRow[layout.rows[index], default: []].append(index) }
        let gap = skeleton.duration * Self.mergeGap
        let starts = skeleton.starts
        let ends = skeleton.ends
        var aggregates: [Aggregate] = []
        for row in byRow.keys.sorted() {
            let members = byRow[row]!.sorted { (starts[$0], $0) < (starts[$1], $1) }
            // Grown in place: a copy of the aggregate would copy its members at every step.
            var current: Aggregate?
            for index in members {
                if let end = current?.end, starts[index] - end <= gap {
                    current?.end = max(end, ends[index])
                    current?.members.append(index)
                } else {
                    if let done = current { aggregates.append(done) }
                    current = Aggregate(row: row, start: starts[index], end: ends[index], members: [index])
                }
            }
            if let done = current { aggregates.append(done) }
        }
        self.aggregates = aggregates
    }
}
