public import ActivityWire

/// What the store has seen so far: totals that survive the eviction of finished activities.
public struct ActivitySummary: Sendable, Hashable {
    /// Activities begun (accepted by the store).
    public var begun = 0
    /// Activities ended, by status (the statuses none ended with are left out).
    public var ended: [ActivityEvent.Status: Int] {
        get {
            var ended: [ActivityEvent.Status: Int] = [:]
            for status in ActivityEvent.Status.allCases where endedCounts[status] != 0 {
                ended[status] = endedCounts[status]
            }
            return ended
        }
        set {
            endedCounts = EndedCounts()
            for (status, count) in newValue { endedCounts[status] = count }
        }
    }
    /// The counts behind ``ended``, one per status: counting an end hashes no status (a status's
    /// hash is its name's).
    private var endedCounts = EndedCounts()
    /// `begin` events ignored because too many activities were open at once.
    public var dropped = 0
    /// Diagnostics counted, by code.
    public var diagnostics: [Diagnostic.Code: Int] = [:]
    /// The first and last event times seen, Unix seconds.
    public var firstTime: Double?
    public var lastTime: Double?

    public init() {}

    /// Activities ended with `status`.
    public func count(_ status: ActivityEvent.Status) -> Int { endedCounts[status] }

    /// Counts an activity that ended with `status`.
    mutating func countEnd(_ status: ActivityEvent.Status) {
        endedCounts[status] &+= 1
    }

    /// Activities ended, whatever their status.
    public var finished: Int { ActivityEvent.Status.allCases.reduce(0) { $0 &+ endedCounts[$1] } }

    /// Diagnostics counted, whatever their code.
    public var diagnosticCount: Int { diagnostics.values.reduce(0, +) }

    /// The time from the first event to the last.
    public var duration: Double {
        guard let firstTime, let lastTime else { return 0 }
        return max(0, lastTime - firstTime)
    }
}

/// A count for each ``ActivityEvent/Status``.
private struct EndedCounts: Sendable, Hashable {
    private var success = 0
    private var failure = 0
    private var cancelled = 0
    private var skipped = 0
    private var abandoned = 0

    subscript(status: ActivityEvent.Status) -> Int {
        get {
            switch status {
            case .success: success
            case .failure: failure
            case .cancelled: cancelled
            case .skipped: skipped
            case .abandoned: abandoned
            }
        }
        set {
            switch status {
            case .success: success = newValue
            case .failure: failure = newValue
            case .cancelled: cancelled = newValue
            case .skipped: skipped = newValue
            case .abandoned: abandoned = newValue
            }
        }
    }
}
