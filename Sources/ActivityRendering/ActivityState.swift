public import ActivityWire

/// One activity as the store knows it: what it is, how far it got, and how it ended.
///
/// Text fields (title, message, unit, error, attribute keys and string values) hold what the
/// producer sent, sanitized by the store (``TextSanitizer/display(_:)``): safe to show as they are.
public struct ActivityState: Sendable, Hashable {
    /// What never changes after the `begin`: shared, so a copy of the state stays small.
    final class Identity: ActivityUpdate.EventHolder, Hashable {
        let id: ActivityID
        let handle: ActivityHandle
        let parent: ActivityHandle?
        let depth: Int
        let unit: String?
        let cancellable: Bool
        let blocking: ActivityEvent.Blocking
        let attrs: [String: AttributeValue]
        let startTime: Double
        let sequence: Int
        /// Who began it, when the store is fed by several reporters; `nil`: anyone may change it.
        let owner: ActivityOwner?
        /// Whether it is a frame (see ``ActivityState/isFrame``), settled once from its attributes:
        /// plain lines and the summary ask it of a parent on every begin and end.
        let isFrame: Bool
        /// The `begin` as applied (its texts as the producer sent them), for the update that
        /// hands it over: kept here, the update needs no box of its own.
        let begin: ActivityEvent.Begin

        /// The `begin`, for the update that hands it over.
        var event: ActivityEvent { .begin(begin) }

        init(
            id: ActivityID, handle: ActivityHandle, parent: ActivityHandle?, depth: Int, unit: String?,
            cancellable: Bool,
            blocking: ActivityEvent.Blocking, attrs: [String: AttributeValue], startTime: Double, sequence: Int,
            owner: ActivityOwner? = nil, begin: consuming ActivityEvent.Begin
        ) {
            self.id = id
            self.handle = handle
            self.parent = parent
            self.depth = depth
            self.unit = unit
            self.cancellable = cancellable
            self.blocking = blocking
            self.attrs = attrs
            self.startTime = startTime
            self.sequence = sequence
            self.owner = owner
            self.begin = begin
            isFrame = attrs[ActivityEvent.Begin.frameAttribute] == .bool(true)
        }

        static func == (lhs: Identity, rhs: Identity) -> Bool {
            lhs === rhs
                || (lhs.id == rhs.id && lhs.handle == rhs.handle && lhs.parent == rhs.parent && lhs.depth == rhs.depth
                    && lhs.unit == rhs.unit
                    && lhs.cancellable == rhs.cancellable && lhs.blocking == rhs.blocking && lhs.attrs == rhs.attrs
                    && lhs.startTime == rhs.startTime && lhs.sequence == rhs.sequence && lhs.owner == rhs.owner)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(id)
            hasher.combine(sequence)
        }
    }

    let identity: Identity

    public var id: ActivityID { identity.id }
    /// The activity in its store.
    public var handle: ActivityHandle { identity.handle }
    public var title: String
    public var message: String?
    /// The enclosing activity, `nil` at top level (also when the producer named a parent that was
    /// not open).
    public var parent: ActivityHandle? { identity.parent }
    /// The children still running, in the order they began.
    public internal(set) var children: [ActivityHandle] = []
    /// How deep in the tree: 0 at top level.
    public var depth: Int { identity.depth }
    public var completed: Double
    /// The amount of work; `nil` when indeterminate.
    public var total: Double?
    /// What is counted: `nil` for items; `bytes` is shown in binary units.
    public var unit: String? { identity.unit }
    public var cancellable: Bool { identity.cancellable }
    public var blocking: ActivityEvent.Blocking { identity.blocking }
    public var attrs: [String: AttributeValue] { identity.attrs }

    /// Whether the activity is a frame around the work of another program (`activity run`'s
    /// own activity): its children count as top-level for permanent lines.
    public var isFrame: Bool { identity.isFrame }
    /// When it began, Unix seconds.
    public var startTime: Double { identity.startTime }
    /// Who began it, when the store is fed by several reporters (see ``ActivityOwner``).
    package var owner: ActivityOwner? { identity.owner }
    /// When it ended, Unix seconds; `nil` while it runs.
    public var endTime: Double?
    /// How it ended; `nil` while it runs.
    public var status: ActivityEvent.Status?
    /// What went wrong, from the `end` event.
    public var error: String?
    /// The rate and ETA estimate.
    public var estimator = RateEstimator()
    /// The order of the activity's begin in the stream, from 0.
    public var sequence: Int { identity.sequence }

    /// Whether the activity is still running.
    public var isRunning: Bool { status == nil }

    /// Whether there is an amount to show: a total, or some work counted (an activity that only
    /// reports messages has none, and shows no `0`).
    public var hasAmount: Bool { total != nil || completed > 0 }

    /// The completed fraction in 0...1, `nil` when indeterminate. A total of 0 counts as done.
    public var fraction: Double? {
        guard let total else { return nil }
        guard total > 0 else { return 1 }
        return min(1, max(0, completed / total))
    }

    /// How long the activity ran, or has run by `now`.
    public func duration(at now: Double) -> Double {
        max(0, (endTime ?? now) - startTime)
    }

    /// The estimated rate in units per second at `now`.
    public func rate(at now: Double) -> Double? { estimator.rate(at: now) }

    /// The estimated seconds left at `now`; `nil` when unknown or stalled, and once all of the
    /// total is done (nothing is left to estimate).
    public func eta(at now: Double) -> Double? {
        if let total, completed >= total { return nil }
        return estimator.eta(total: total, at: now)
    }
}
