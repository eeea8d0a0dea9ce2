/// Something that receives activity events: a JSON-lines writer, a renderer's store, a test's
/// in-memory buffer.
///
/// Conforming types must be safe to call from any thread and must never block for long: producers
/// call ``send(_:)`` from their own code paths. A sink that cannot keep up drops progress events
/// (never `begin`, `end` or `log`) rather than stall the caller.
public protocol ActivityEventSink: Sendable {
    /// Delivers one event.
    func send(_ event: ActivityEvent)

    /// Waits, at most until `timeout` seconds have passed, for events already sent to reach their
    /// destination. Called before a process exits.
    func flush(timeout: Double)
}

extension ActivityEventSink {
    public func flush(timeout: Double) {}
}
