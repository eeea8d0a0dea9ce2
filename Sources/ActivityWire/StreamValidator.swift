/// Applies the protocol's rules across the lines of one stream: the consumers' one fold of them,
/// with each problem worded as ``ConsumerRules`` words it.
///
/// Feed it every decoded event in order, then call ``finish(atLine:)``. It reports:
/// ``Diagnostic/Code/unknownActivity`` (progress, end or log for an id never begun),
/// ``Diagnostic/Code/duplicateBegin``, ``Diagnostic/Code/alreadyEnded`` (any event after `end`),
/// ``Diagnostic/Code/unknownParent`` (warning), ``Diagnostic/Code/childrenOpen`` (an activity
/// ended before its children) and, at the end, ``Diagnostic/Code/neverEnded`` (warning).
///
/// ```swift
/// var validator = StreamValidator()
/// let problems = validator.check(event, line: 3) + validator.finish(atLine: 10)
/// ```
///
/// Memory grows with the number of distinct ids in the stream, since "ended twice" needs every
/// ended id; it is a tool for checking streams, not for rendering them.
public struct StreamValidator: Sendable {
    /// The rules, applied; the validator keeps only the line of each activity's `begin`.
    private var fold = ConsumerFold()
    private var beginLines: [Int] = []

    public init() {}

    /// Checks one event against what came before, and returns the problems it shows.
    public mutating func check(_ event: ActivityEvent, line: Int) -> [Diagnostic] {
        let step = fold.apply(event)
        if case .begun(let slot, _) = step.outcome {
            if slot == beginLines.count { beginLines.append(line) } else { beginLines[slot] = line }
        }
        return step.problem.map { [$0.diagnostic(line: line)] } ?? []
    }

    /// Reports every activity still open at the end of the stream, on `line`: the stream's last
    /// line (each message names the line of the activity's `begin`), in the order they began.
    public mutating func finish(atLine line: Int) -> [Diagnostic] {
        fold.finish().sorted { beginLines[$0] < beginLines[$1] }.map {
            ConsumerRules.Problem.neverEnded(fold.id(of: $0), begunOnLine: beginLines[$0]).diagnostic(line: line)
        }
    }
}
