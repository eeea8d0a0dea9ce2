import ActivityWire

/// Which activities a drawing shows as bars of their own, and which it folds into aggregates.
///
/// Up to `budget` activities, every one is a bar. Past it (a recording of 100,000 compile
/// steps), the `budget` longest keep their bars, and so do every failure and everything on
/// the critical path; the rest, too short to see at the drawing's scale, are merged per row:
/// neighbours closer than ``mergeGap`` of the total time become one aggregate bar that says
/// how many activities it holds.
public struct TimelineBars: Sendable {
    /// Several activities drawn as one bar.
    public struct Aggregate: Sendable {
        public var row: Int
        public var start: Double
        public var end: Double
        /// The activities it holds, by start time.
        public var members: [Int]
    }

    /// The default number of bars of their own: enough for any build a person reads bar by bar,
    /// few enough for a browser to zoom and scroll smoothly.
    public static let defaultBudget = 10_000
    /// Hidden activities closer than this fraction of the whole time merge into one aggregate.
    public static let mergeGap = 0.002

    /// The activities drawn as bars, in the order they began.
    public let shown: [Int]
    public let aggregates: [Aggregate]

    public init(_ timeline: Timeline, layout: TimelineLayout, criticalPath: CriticalPath, budget: Int = defaultBudget) {
        let activities = timeline.activities
        guard activities.count > budget else {
            shown = Array(activities.indices)
            aggregates = []
            return
        }
        let longest = activities.indices.sorted { (activities[$1].duration, $0) < (activities[$0].duration, $1) }
        var visible = [Bool](repeating: false, count: activities.count)
        for index in longest.prefix(budget) { visible[index] = true }
        for index in activities.indices where activities[index].outcome == .failure || criticalPath.contains(index) {
            visible[index] = true
        }
        shown = activities.indices.filter { visible[$0] }
        var byRow: [Int: [Int]] = [:]
        for index in activities.indices where !visible[index] { byRow[layout.rows[index], default: []].append(index) }
        let gap = timeline.duration * Self.mergeGap
        var aggregates: [Aggregate] = []
        for row in byRow.keys.sorted() {
            let members = byRow[row]!.sorted { (activities[$0].start, $0) < (activities[$1].start, $1) }
            var current: Aggregate?
            for index in members {
                let activity = activities[index]
                if var open = current, activity.start - open.end <= gap {
                    open.end = max(open.end, activity.end)
                    open.members.append(index)
                    current = open
                } else {
                    if let done = current { aggregates.append(done) }
                    current = Aggregate(row: row, start: activity.start, end: activity.end, members: [index])
                }
            }
            if let done = current { aggregates.append(done) }
        }
        self.aggregates = aggregates
    }
}
