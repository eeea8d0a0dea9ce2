import ActivityWire

/// What the closing summary remembers of finished activities, in bounded memory: the slowest
/// top-level steps and the failures, noted as each activity ends (finished activities are
/// evicted from the store long before the end).
struct SummaryNotes {
    /// A finished top-level step.
    struct Step {
        var title: String
        var duration: Double
        var status: ActivityEvent.Status
    }

    /// A failure, named by its path.
    struct Failure {
        var path: String
        var error: String?
        /// The newest lines of its output.
        var tail: [String] = []
    }

    /// A step that took longer than it usually does (``ActivityHistory/isSlower(_:thanUsual:)``).
    struct Slower {
        var path: String
        var duration: Double
        var usual: Double
    }

    /// The steps that were slower than usual, the most time lost first.
    private(set) var slower: [Slower] = []
    /// How many were, in all.
    private(set) var slowerCount = 0

    mutating func note(slower step: Slower) {
        slowerCount += 1
        let lost = step.duration - step.usual
        let position = slower.firstIndex { $0.duration - $0.usual < lost } ?? slower.count
        guard position < Self.slowestKept else { return }
        slower.insert(step, at: position)
        if slower.count > Self.slowestKept { slower.removeLast() }
    }

    /// How many slowest steps and failures are kept.
    static let slowestKept = 5
    static let failuresKept = 20

    /// The slowest top-level steps, slowest first.
    private(set) var slowest: [Step] = []
    /// Top-level steps that finished.
    private(set) var steps = 0
    /// The first failures, in the order they ended.
    private(set) var failures: [Failure] = []
    /// Failures past ``failuresKept``.
    private(set) var moreFailures = 0

    mutating func note(step: Step) {
        steps += 1
        guard slowest.count < Self.slowestKept || step.duration > slowest[slowest.count - 1].duration else { return }
        let position = slowest.firstIndex { $0.duration < step.duration } ?? slowest.count
        slowest.insert(step, at: position)
        if slowest.count > Self.slowestKept { slowest.removeLast() }
    }

    mutating func note(failure: Failure) {
        if failures.count < Self.failuresKept {
            failures.append(failure)
        } else {
            moreFailures += 1
        }
    }
}
