public import ActivityWire

/// Fans every call out to several renderers, in order.
///
/// Fan-out is just another renderer: a ``RenderSession`` with a terminal, a log file and a plugin
/// holds one multiplex of the three. The multiplex ticks at the shortest interval any of its
/// renderers asks for, and passes each tick on only to the renderers whose own interval has
/// passed.
///
/// ```swift
/// let renderer = MultiplexRenderer([terminal, logFile])
/// ```
public final class MultiplexRenderer: ActivityRenderer {
    public let renderers: [any ActivityRenderer]
    private var lastTick: [Double]

    public init(_ renderers: [any ActivityRenderer]) {
        self.renderers = renderers
        self.lastTick = Array(repeating: -.infinity, count: renderers.count)
    }

    public var preferredTickInterval: Double? {
        renderers.compactMap(\.preferredTickInterval).min()
    }

    public func render(_ update: ActivityUpdate, in store: ActivityStore) {
        // Called for every event: by index, which retains neither the array nor its elements.
        for index in renderers.indices { renderers[index].render(update, in: store) }
    }

    public func passthrough(_ bytes: [UInt8], to stream: StandardStream, in store: ActivityStore) {
        for renderer in renderers { renderer.passthrough(bytes, to: stream, in: store) }
    }

    public func report(_ diagnostic: Diagnostic, in store: ActivityStore) {
        for renderer in renderers { renderer.report(diagnostic, in: store) }
    }

    public func notice(_ message: String, in store: ActivityStore) {
        for renderer in renderers { renderer.notice(message, in: store) }
    }

    public func tick(_ store: ActivityStore, now: Double) {
        // Half a beat of slack, so a timer that fires a hair early does not skip a beat.
        let slack = (preferredTickInterval ?? 0) / 2
        for (index, renderer) in renderers.enumerated() {
            guard let interval = renderer.preferredTickInterval else { continue }
            // A clock that went back (a stream whose times are behind ours, its first event after
            // a tick) is a tick due at once, not one due when the clock is back where it was.
            guard now - lastTick[index] >= interval - slack || now < lastTick[index] else { continue }
            lastTick[index] = now
            renderer.tick(store, now: now)
        }
    }

    public func finish(_ store: ActivityStore, now: Double) {
        for renderer in renderers { renderer.finish(store, now: now) }
    }
}
