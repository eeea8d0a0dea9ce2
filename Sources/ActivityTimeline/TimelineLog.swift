public import ActivityWire

/// One `log` line of a recording, at the time it was written.
public struct TimelineLog: Hashable, Sendable {
    /// Unix time in seconds.
    public var time: Double
    public var level: ActivityEvent.Level
    public var message: String

    public init(time: Double, level: ActivityEvent.Level, message: String) {
        self.time = time
        self.level = level
        self.message = message
    }
}
