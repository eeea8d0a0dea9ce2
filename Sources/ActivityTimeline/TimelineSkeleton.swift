public import ActivityWire

/// A recording's shape without its text: per activity its times, parent, children and outcome.
///
/// Layout, critical path and bars need nothing else, so a report of a recording of a million
/// activities computes them from this (about 50 bytes an activity) and reads titles, messages
/// and logs only for the activities it shows (``HTMLReportWriter/plan(_:)``).
///
/// ```swift
/// var skeleton = TimelineSkeleton()
/// skeleton.record(activity, parent: parentSequence)   // as each activity ends, any order
/// skeleton.finish()                                   // children lists, roots, time range
/// let layout = TimelineLayout(skeleton)
/// ```
public struct TimelineSkeleton: Sendable {
    /// Indexed by the order activities began (``TimelineActivity/sequence``).
    public private(set) var starts: [Double] = []
    public private(set) var ends: [Double] = []
    private var parents: [Int] = []
    private var depths: [Int32] = []
    public private(set) var outcomes: [ActivityEvent.Status] = []
    /// Each activity's children are `childList[childStarts[i]..<childStarts[i + 1]]`, in begin order.
    private var childStarts: [Int] = []
    private var childList: [Int] = []
    /// The top-level activities, in the order they began.
    public private(set) var roots: [Int] = []
    /// Unix time in seconds of the first begin and of the last end, loose log lines included.
    public private(set) var start = 0.0
    public private(set) var end = 0.0
    /// Log lines of every activity, kept by the builder or only counted.
    public private(set) var activityLogCount = 0
    private var looseTimes: (min: Double, max: Double)?

    public init() {}

    /// The skeleton of a whole timeline.
    public init(_ timeline: Timeline) {
        // By index, not sequence: a timeline made by hand need not number its activities.
        for (index, activity) in timeline.activities.enumerated() {
            record(activity, at: index, parent: activity.parent)
        }
        for log in timeline.looseLogs { recordLooseLog(at: log.time) }
        finish()
    }

    /// How many activities there are.
    public var count: Int { starts.count }
    /// Seconds from the first begin to the last end.
    public var duration: Double { end - start }

    /// Adds an ended activity; `parent` is its parent's ``TimelineActivity/sequence``.
    public mutating func record(_ activity: TimelineActivity, parent: Int?) {
        record(activity, at: activity.sequence, parent: parent)
    }

    private mutating func record(_ activity: TimelineActivity, at index: Int, parent: Int?) {
        if index >= starts.count {
            let missing = index + 1 - starts.count
            starts += repeatElement(0, count: missing)
            ends += repeatElement(0, count: missing)
            parents += repeatElement(-1, count: missing)
            depths += repeatElement(0, count: missing)
            outcomes += repeatElement(.abandoned, count: missing)
        }
        starts[index] = activity.start
        ends[index] = activity.end
        parents[index] = parent ?? -1
        depths[index] = Int32(clamping: activity.depth)
        outcomes[index] = activity.outcome
        activityLogCount += activity.logCount
    }

    /// Counts a log line that belongs to no activity into the time range.
    public mutating func recordLooseLog(at time: Double) {
        looseTimes = (min(looseTimes?.min ?? time, time), max(looseTimes?.max ?? time, time))
    }

    /// Makes the children lists, the roots and the time range once every activity is recorded.
    public mutating func finish() {
        var counts = [Int](repeating: 0, count: count + 1)
        for parent in parents where parent >= 0 { counts[parent + 1] += 1 }
        for index in 0..<count { counts[index + 1] += counts[index] }
        childStarts = counts
        var next = counts
        childList = [Int](repeating: 0, count: counts[count])
        roots = []
        for index in 0..<count {
            let parent = parents[index]
            if parent >= 0 {
                childList[next[parent]] = index
                next[parent] += 1
            } else {
                roots.append(index)
            }
        }
        let earliest = [starts.min(), looseTimes?.min].compactMap { $0 }.min()
        let latest = [ends.max(), looseTimes?.max].compactMap { $0 }.max()
        start = earliest ?? 0
        end = latest ?? 0
    }

    public func duration(_ index: Int) -> Double { ends[index] - starts[index] }
    public func parent(_ index: Int) -> Int? { parents[index] >= 0 ? parents[index] : nil }
    public func depth(_ index: Int) -> Int { Int(depths[index]) }
    public func children(_ index: Int) -> ArraySlice<Int> { childList[childStarts[index]..<childStarts[index + 1]] }

    /// How many activities ended with `status`.
    public func count(_ status: ActivityEvent.Status) -> Int {
        outcomes.reduce(0) { $0 + ($1 == status ? 1 : 0) }
    }
}
