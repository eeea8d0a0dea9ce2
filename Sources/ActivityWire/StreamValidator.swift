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

    private static func describe(_ descendants: [ActivityID]) -> String {
        let names = descendants.sorted().prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
        let more = descendants.count > 5 ? " and \(descendants.count - 5) more" : ""
        return descendants.count == 1 ? "its child \(names) was" : "its descendants \(names)\(more) were"
    }

    private var open: [ActivityID: Open] = [:]
    private var ended: Set<ActivityID> = []
    /// Ids in order of their begin, for a stable report at the end.
    private var order: [ActivityID] = []

    public init() {}

    /// Checks one event against what came before, and returns the problems it shows.
    public mutating func check(_ event: ActivityEvent, line: Int) -> [Diagnostic] {
        func problem(_ code: Diagnostic.Code, _ message: String) -> [Diagnostic] {
            [Diagnostic(line: line, code: code, message: message)]
        }
        switch event {
        case .begin(let begin):
            if open[begin.id] != nil || ended.contains(begin.id) {
                return problem(.duplicateBegin, "\"\(begin.id)\" has already begun")
            }
            var result: [Diagnostic] = []
            var parent = begin.parent
            if let parentID = parent {
                if open[parentID] != nil {
                    open[parentID]!.openChildren += 1
                } else {
                    let state = ended.contains(parentID) ? "has already ended" : "was never begun"
                    result += problem(.unknownParent, "the parent \"\(parentID)\" \(state); attached at the top")
                    parent = nil
                }
            }
            open[begin.id] = Open(parent: parent, line: line)
            order.append(begin.id)
            return result
        case .progress(let progress):
            return checkKnown(progress.id, line: line, doing: "progress")
        case .log(let log):
            guard let id = log.id else { return [] }
            return checkKnown(id, line: line, doing: "log")
        case .end(let end):
            let problems = checkKnown(end.id, line: line, doing: "end")
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
            let children = Self.describe(descendants)
            return problem(
                .childrenOpen,
                "\"\(end.id)\" ended while \(children) still open; consumers end them as abandoned"
            )
        }
    }

    /// Reports every activity still open at the end of the stream, on `line`: the stream's last
    /// line (each message names the line of the activity's `begin`).
    public mutating func finish(atLine line: Int) -> [Diagnostic] {
        let result = order.filter { open[$0] != nil }.map {
            Diagnostic(
                line: line, code: .neverEnded,
                message: "\"\($0)\" (begun on line \(open[$0]!.line)) never ended; consumers end it as abandoned"
            )
        }
        open.removeAll()
        order.removeAll()
        return result
    }

    private func checkKnown(_ id: ActivityID, line: Int, doing what: String) -> [Diagnostic] {
        if open[id] != nil { return [] }
        let (code, message): (Diagnostic.Code, String) =
            ended.contains(id)
            ? (.alreadyEnded, "\(what) for \"\(id)\", which has already ended")
            : (.unknownActivity, "\(what) for \"\(id)\", which was never begun")
        return [Diagnostic(line: line, code: code, message: message)]
    }
}
