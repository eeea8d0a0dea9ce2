/// The chain of activities that decided how long a recording took.
///
/// The definition: start from the top-level activity that ended last. An activity on the path
/// was waiting for two things: its own children, and, before it started, whatever it followed.
/// So the path goes *into* it (the child that ended last, and that child's own chain) and
/// *back* from it (among its siblings, the one that ended last while it had not yet started;
/// then that one's predecessor, and so on). Shortening anything off the path does not make the
/// run end sooner; shortening something on it may.
///
/// This needs no declared dependencies: "ended before it started" stands in for "it waited
/// for". For a build that runs its steps in parallel, the path is the longest chain of steps
/// that followed one another.
///
/// ```swift
/// let path = CriticalPath(timeline)
/// for index in path.activities { print(timeline.activities[index].title) }
/// ```
public struct CriticalPath: Sendable {
    /// The activities on the path, by start time (a parent before its children).
    public let activities: [Int]
    private let members: Set<Int>

    public init(_ timeline: Timeline) { self.init(TimelineSkeleton(timeline)) }

    public init(_ skeleton: TimelineSkeleton) {
        var found: [Int] = []
        Self.walk(skeleton.roots[...], in: skeleton, into: &found)
        let starts = skeleton.starts
        self.activities = found.sorted {
            (starts[$0], skeleton.depth($0)) < (starts[$1], skeleton.depth($1))
        }
        members = Set(found)
    }

    /// Whether activity `index` is on the path.
    public func contains(_ index: Int) -> Bool { members.contains(index) }

    /// Follows the chain among `siblings` back from the one that ended last, and into each one.
    private static func walk(_ siblings: ArraySlice<Int>, in skeleton: TimelineSkeleton, into path: inout [Int]) {
        guard !siblings.isEmpty else { return }
        let ends = skeleton.ends
        // By end time, so "the latest that ended before t" is a binary search; ties by begin order.
        let byEnd = siblings.sorted { (ends[$0], $0) < (ends[$1], $1) }
        var position = byEnd.count - 1
        while true {
            let index = byEnd[position]
            path.append(index)
            walk(skeleton.children(index), in: skeleton, into: &path)
            // Only earlier positions: each step moves back, so zero-length activities cannot loop.
            let start = skeleton.starts[index]
            var low = 0
            var high = position
            while low < high {
                let middle = (low + high) / 2
                if ends[byEnd[middle]] <= start { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { return }
            position = low - 1
        }
    }
}
