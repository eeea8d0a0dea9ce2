/// What a Chrome trace decides from the whole recording before it writes an event: which
/// activities are complete events on the one thread, which have counter tracks, where the time
/// axis starts, and what the process is called.
///
/// It holds a few words per activity (start, end, parent, sample count), so an exporter can make
/// it in a first pass over a recording, forgetting each activity once recorded, and write the
/// trace in a second (``ChromeTraceWriter``).
package struct ChromeTracePlan: Sendable {
    private var starts: [Double] = []
    private var ends: [Double] = []
    /// The parent's sequence, -1 at top level.
    private var parents: [Int32] = []
    private var sampleCounts: [Int32] = []
    private var earliest: Double?
    private var firstRoot: Int?
    /// The first top-level activity's title, which names the process.
    package private(set) var processName: String?

    package init() {}

    /// The plan of a whole timeline.
    package init(_ timeline: Timeline) {
        for activity in timeline.activities { record(activity, parent: activity.parent) }
        for log in timeline.looseLogs { record(looseLogAt: log.time) }
    }

    /// How many activities were recorded.
    package var count: Int { starts.count }

    /// Unix time of the first begin, end or loose log line (0 when there was none): the trace's zero.
    package var origin: Double { earliest ?? 0 }

    /// Records an ended activity; `parent` is its parent's ``TimelineActivity/sequence``.
    package mutating func record(_ activity: TimelineActivity, parent: Int?) {
        let index = activity.sequence
        if index >= starts.count {
            let missing = index + 1 - starts.count
            starts += repeatElement(0, count: missing)
            ends += repeatElement(0, count: missing)
            parents += repeatElement(-1, count: missing)
            sampleCounts += repeatElement(0, count: missing)
        }
        starts[index] = activity.start
        ends[index] = activity.end
        parents[index] = Int32(clamping: parent ?? -1)
        sampleCounts[index] = Int32(clamping: activity.samples.count)
        earliest = min(earliest ?? activity.start, activity.start, activity.end)
        if parent == nil, firstRoot.map({ index < $0 }) ?? true {
            firstRoot = index
            processName = activity.title
        }
    }

    /// Records the time of a log line that belongs to no activity.
    package mutating func record(looseLogAt time: Double) {
        earliest = min(earliest ?? time, time)
    }

    /// Which activities can be complete events on the one thread: those inside a synchronous
    /// parent (or at the top) that start after the previous such sibling ended.
    package func synchronous() -> [Bool] {
        var sync = [Bool](repeating: false, count: count)
        var roots: [Int] = []
        var children = [[Int]](repeating: [], count: count)
        for index in 0..<count {
            let parent = Int(parents[index])
            if parent < 0 { roots.append(index) } else { children[parent].append(index) }
        }
        func place(_ siblings: [Int], within bounds: (Double, Double)?) {
            var lastEnd = -Double.infinity
            for index in siblings.sorted(by: { (starts[$0], $0) < (starts[$1], $1) }) {
                let inside = bounds.map { starts[index] >= $0.0 && ends[index] <= $0.1 } ?? true
                guard inside, starts[index] >= lastEnd else { continue }
                sync[index] = true
                lastEnd = ends[index]
            }
        }
        place(roots, within: nil)
        // Begin order puts every parent before its children.
        for index in 0..<count where sync[index] && !children[index].isEmpty {
            place(children[index], within: (starts[index], ends[index]))
        }
        return sync
    }

    /// The activities with counter tracks, in begin order: the `limit` with the most progress
    /// samples (at least two), ties to the earlier.
    package func counterTracks(limit: Int) -> [Int] {
        (0..<count).filter { sampleCounts[$0] >= 2 }
            .sorted { (sampleCounts[$1], $0) < (sampleCounts[$0], $1) }
            .prefix(limit).sorted()
    }
}
