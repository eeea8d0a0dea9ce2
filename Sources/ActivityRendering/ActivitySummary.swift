public import ActivityWire

/// What the store has seen so far: totals that survive the eviction of finished activities.
public struct ActivitySummary: Sendable, Hashable {
    /// Activities begun (accepted by the store).
    public var begun = 0
    /// Activities ended, by status.
    public var ended: [ActivityEvent.Status: Int] = [:]
    /// `begin` events ignored because too many activities were open at once.
    public var dropped = 0
    /// Diagnostics counted, by code.
    public var diagnostics: [Diagnostic.Code: Int] = [:]
    /// The first and last event times seen, Unix seconds.
    public var firstTime: Double?
    public var lastTime: Double?

    public init() {}

    /// Activities ended with `status`.
    public func count(_ status: ActivityEvent.Status) -> Int { ended[status, default: 0] }

    /// Activities ended, whatever their status.
    public var finished: Int { ended.values.reduce(0, +) }

    /// Diagnostics counted, whatever their code.
    public var diagnosticCount: Int { diagnostics.values.reduce(0, +) }

    /// The time from the first event to the last.
    public var duration: Double {
        guard let firstTime, let lastTime else { return 0 }
        return max(0, lastTime - firstTime)
    }
}
