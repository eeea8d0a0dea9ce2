public import ActivityWire

/// One activity of a recording, from its `begin` to its `end`, with everything that happened to
/// it in between.
public struct TimelineActivity: Hashable, Sendable {
    public var id: ActivityID
    /// Its place in the order activities began (its index in ``Timeline/activities``, also when
    /// a builder that forgets ended activities reuses its slot).
    public var sequence = 0
    /// The latest title (a `progress` may rename an activity).
    public var title: String
    /// The enclosing activity's id; `nil` at top level (also when the parent named was not open).
    public var parentID: ActivityID?
    /// The enclosing activity's index in ``Timeline/activities``.
    public var parent: Int?
    /// The indices of the activities begun inside this one, in the order they began.
    public var children: [Int] = []
    /// 0 at top level.
    public var depth: Int
    /// The id of the top-level activity this one belongs to: it names the trace in OpenTelemetry.
    public var rootID: ActivityID
    /// Unix time in seconds of the `begin`.
    public var start: Double
    /// Unix time in seconds of the `end` (or of the moment it was abandoned); never before `start`.
    public var end: Double
    /// `nil` while the activity is open.
    public var status: ActivityEvent.Status?
    public var message: String?
    public var error: String?
    public var completed: Double
    public var total: Double?
    public var unit: String?
    public var attrs: [String: AttributeValue]
    /// The activity's log lines, the first ``TimelineBuilder/maxLogsPerActivity`` of them.
    public var logs: [TimelineLog] = []
    /// How many log lines the activity had, kept or not.
    public var logCount = 0
    /// How the amount done grew, thinned to at most ``TimelineBuilder/maxSamplesPerActivity``.
    public var samples: [ProgressSample] = []

    public init(
        id: ActivityID, title: String, parentID: ActivityID?, parent: Int?, depth: Int, rootID: ActivityID,
        start: Double, completed: Double, total: Double?, unit: String?, message: String?,
        attrs: [String: AttributeValue]
    ) {
        self.id = id
        self.title = title
        self.parentID = parentID
        self.parent = parent
        self.depth = depth
        self.rootID = rootID
        self.start = start
        self.end = start
        self.completed = completed
        self.total = total
        self.unit = unit
        self.message = message
        self.attrs = attrs
    }

    /// Seconds from `begin` to `end`.
    public var duration: Double { end - start }

    /// The outcome, `abandoned` for an activity still open.
    public var outcome: ActivityEvent.Status { status ?? .abandoned }

    /// Work done per second over the whole activity, when there was work and time.
    public var rate: Double? {
        guard completed > 0, duration > 0 else { return nil }
        return completed / duration
    }
}
