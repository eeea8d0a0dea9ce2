public import ActivityWire

/// A session is a sink: bootstrap `ActivityReporting` with one (`ActivitySystem.bootstrap(session)`)
/// and a program draws its own activities in process, with no JSON in between.
///
/// ```swift
/// let session = try RenderSession(options: RenderOptions())
/// ActivitySystem.bootstrap(session)
/// ```
extension RenderSession: ActivityEventSink {
    /// Applies the event, as ``handle(_:)`` does, on the caller's thread.
    public func send(_ event: ActivityEvent) {
        handle(event)
    }
}
