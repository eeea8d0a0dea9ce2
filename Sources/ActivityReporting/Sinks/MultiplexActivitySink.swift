import ActivityWire

/// Sends every event to several sinks, in order: a renderer in this process and a JSON-lines
/// writer for a parent process, say.
///
/// ```swift
/// ActivitySystem.bootstrap(MultiplexActivitySink([store, try JSONLinesSink(.file(path: "events.jsonl"))]))
/// ```
public struct MultiplexActivitySink: ActivityEventSink {
    /// The sinks, in the order they receive each event.
    public let sinks: [any ActivityEventSink]

    public init(_ sinks: [any ActivityEventSink]) {
        self.sinks = sinks
    }

    public func send(_ event: ActivityEvent) {
        for sink in sinks { sink.send(event) }
    }

    /// Flushes each sink in turn, within `timeout` seconds in all.
    public func flush(timeout: Double) {
        let deadline = monotonicSeconds() + timeout
        for sink in sinks { sink.flush(timeout: max(0, deadline - monotonicSeconds())) }
    }
}

/// A sink that drops every event. Reporting to it costs next to nothing: activities begun under it
/// build no events at all.
public struct NoOpActivitySink: ActivityEventSink {
    public init() {}

    public func send(_ event: ActivityEvent) {}
}
