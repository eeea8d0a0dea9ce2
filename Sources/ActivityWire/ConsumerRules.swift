/// The protocol's consumer rules, decided and worded in one place.
///
/// Every consumer of a stream (the renderers' store, the timeline, the validator, the overlay
/// model) folds it through one table of ids, `ConsumerFold` (in this module, for the package's
/// consumers), which asks these rules what an event may do given what it knows of the ids the
/// event names. So the four accept, refuse and re-parent the same events, and a problem reads
/// the same whichever reports it. A fold of its own asks them the same way:
///
/// ```swift
/// if let problem = ConsumerRules.begin(begin.id, standing: table.standing(of: begin.id)) {
///     report(problem.diagnostic(line: line))  // a duplicate: the begin changes nothing
/// } else {
///     open(begin)
/// }
/// ```
public enum ConsumerRules {
    /// What a fold knows of an id when an event names it.
    public enum Standing: Sendable, Hashable {
        /// Begun and not ended.
        case open
        /// Begun and ended.
        case ended
        /// Never begun: the fold remembers every id it has seen, so it knows.
        case neverBegun
        /// Not open, and the fold cannot say more: it forgets ids once their activities end.
        case notOpen
    }

    /// The event that names an id it does not open.
    public enum Doing: String, Sendable, Hashable {
        case progress, log, end
    }

    /// A break of the rules, before it is worded: cheap to make for a fold that does not report.
    public enum Problem: Sendable, Hashable {
        /// A `begin` for an id that is open, or that has ended.
        case duplicateBegin(ActivityID)
        /// A `begin` whose parent is not open: the activity is attached at the top.
        case unknownParent(ActivityID, Standing)
        /// A `progress`, `log` or `end` for an id that is not open.
        case notOpen(Doing, ActivityID, Standing)
        /// An `end` while descendants were still open: they end as abandoned. `ended` and
        /// `descendants` are named as the consumer can best name them (a title and an id, or an
        /// id), the descendants in the order they end: each before its parent.
        case childrenOpen(ended: String, descendants: [String])
        /// The stream ended with the activity open, begun on `begunOnLine`.
        case neverEnded(ActivityID, begunOnLine: Int)

        public var code: Diagnostic.Code {
            switch self {
            case .duplicateBegin: .duplicateBegin
            case .unknownParent: .unknownParent
            case .notOpen(_, _, .ended): .alreadyEnded
            case .notOpen: .unknownActivity
            case .childrenOpen: .childrenOpen
            case .neverEnded: .neverEnded
            }
        }

        /// The one wording of the problem.
        public var message: String {
            switch self {
            case .duplicateBegin(let id):
                return "\"\(id)\" has already begun"
            case .unknownParent(let parent, let standing):
                return "the parent \"\(parent)\" \(Self.describe(standing)); attached at the top"
            case .notOpen(let doing, let id, let standing):
                return "\(doing.rawValue) for \"\(id)\", which \(Self.describe(standing))"
            case .childrenOpen(let ended, let descendants):
                let names = descendants.prefix(5).joined(separator: ", ")
                let more = descendants.count > 5 ? " and \(descendants.count - 5) more" : ""
                if descendants.count == 1 {
                    return "\(ended) ended while its child \(names) was still open; it ends as abandoned"
                }
                return "\(ended) ended while its descendants \(names)\(more) were still open; they end as abandoned"
            case .neverEnded(let id, let line):
                return "\"\(id)\" (begun on line \(line)) never ended; it ends as abandoned"
            }
        }

        public func diagnostic(line: Int) -> Diagnostic {
            Diagnostic(line: line, code: code, message: message)
        }

        private static func describe(_ standing: Standing) -> String {
            switch standing {
            case .open: "is open"
            case .ended: "has already ended"
            case .neverBegun: "was never begun"
            case .notOpen: "is not open"
            }
        }
    }

    /// Whether a `begin` for `id` opens an activity; the problem when it does not.
    public static func begin(_ id: ActivityID, standing: Standing) -> Problem? {
        standing == .open || standing == .ended ? .duplicateBegin(id) : nil
    }

    /// Whether a `begin` naming `parent` of this standing nests under it; otherwise the activity
    /// is attached at the top, with the problem.
    public static func parent(_ parent: ActivityID, standing: Standing) -> Problem? {
        standing == .open ? nil : .unknownParent(parent, standing)
    }

    /// Whether a `progress`, `log` or `end` for `id` of this standing applies to it. A refused
    /// `log` still shows, as a log of no activity.
    public static func event(_ doing: Doing, for id: ActivityID, standing: Standing) -> Problem? {
        standing == .open ? nil : .notOpen(doing, id, standing)
    }
}
