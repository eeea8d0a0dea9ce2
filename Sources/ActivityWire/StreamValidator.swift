/// Applies the protocol's rules across the lines of one stream.
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
    private struct Open: Sendable {
        var parent: ActivityID?
        var line: Int
        var openChildren = 0
    }

    private var open: [ActivityID: Open] = [:]
    private var ended: Set<ActivityID> = []
    /// Ids in order of their begin, for a stable report at the end.
    private var order: [ActivityID] = []

    public init() {}

    /// Checks one event against what came before, and returns the problems it shows.
    public mutating func check(_ event: ActivityEvent, line: Int) -> [Diagnostic] {
        switch event {
        case .begin(let begin):
            if let problem = ConsumerRules.begin(begin.id, standing: standing(of: begin.id)) {
                return [problem.diagnostic(line: line)]
            }
            var result: [Diagnostic] = []
            var parent = begin.parent
            if let parentID = parent {
                if let problem = ConsumerRules.parent(parentID, standing: standing(of: parentID)) {
                    result.append(problem.diagnostic(line: line))
                    parent = nil
                } else {
                    open[parentID]!.openChildren += 1
                }
            }
            open[begin.id] = Open(parent: parent, line: line)
            order.append(begin.id)
            return result
        case .progress(let progress):
            return checkKnown(progress.id, line: line, doing: .progress)
        case .log(let log):
            guard let id = log.id else { return [] }
            return checkKnown(id, line: line, doing: .log)
        case .end(let end):
            let problems = checkKnown(end.id, line: line, doing: .end)
            guard problems.isEmpty, let state = open.removeValue(forKey: end.id) else { return problems }
            ended.insert(end.id)
            if let parent = state.parent { open[parent]?.openChildren -= 1 }
            guard state.openChildren > 0 else { return [] }
            // Consumers end the open descendants as abandoned, so they count as ended from here on.
            var descendants: [ActivityID] = []
            var frontier: Set<ActivityID> = [end.id]
            while !frontier.isEmpty {
                let next = open.filter { $0.value.parent.map(frontier.contains) ?? false }.keys
                descendants += next
                frontier = Set(next)
            }
            for id in descendants {
                open[id] = nil
                ended.insert(id)
            }
            let names = descendants.sorted().map { "\"\($0)\"" }
            return [
                ConsumerRules.Problem.childrenOpen(ended: "\"\(end.id)\"", descendants: names).diagnostic(line: line)
            ]
        }
    }

    /// Reports every activity still open at the end of the stream, on `line`: the stream's last
    /// line (each message names the line of the activity's `begin`).
    public mutating func finish(atLine line: Int) -> [Diagnostic] {
        let result = order.filter { open[$0] != nil }.map {
            ConsumerRules.Problem.neverEnded($0, begunOnLine: open[$0]!.line).diagnostic(line: line)
        }
        open.removeAll()
        order.removeAll()
        return result
    }

    private func checkKnown(_ id: ActivityID, line: Int, doing: ConsumerRules.Doing) -> [Diagnostic] {
        ConsumerRules.event(doing, for: id, standing: standing(of: id)).map { [$0.diagnostic(line: line)] } ?? []
    }

    /// The validator remembers every id, so it knows one that was never begun.
    private func standing(of id: ActivityID) -> ConsumerRules.Standing {
        open[id] != nil ? .open : ended.contains(id) ? .ended : .neverBegun
    }
}
