import ActivityRendering
import ActivityWire

@testable import ActivityCLI

/// What reached a render session's renderer, as `activity run` feeds one: the events
/// as the store took them, and the problems reported.
final class RecordingRenderer: ActivityRenderer, @unchecked Sendable {
    private(set) var events: [ActivityEvent] = []
    private(set) var codes: [Diagnostic.Code] = []

    func render(_ update: ActivityUpdate, in store: ActivityStore) { events.append(update.event(in: store)) }

    func report(_ diagnostic: Diagnostic, in store: ActivityStore) { codes.append(diagnostic.code) }

    /// What arrived since the last call.
    func take() -> (events: [ActivityEvent], codes: [Diagnostic.Code]) {
        defer {
            events = []
            codes = []
        }
        return (events, codes)
    }

    /// A render session drawing only on a new recorder.
    static func session() -> (session: RenderSession, seen: RecordingRenderer) {
        let seen = RecordingRenderer()
        return (RenderSession(renderers: [seen]), seen)
    }
}
