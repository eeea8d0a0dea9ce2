import ActivityRendering
import ActivityWire
import Synchronization
import Testing

/// What Docs/reporting.md and the SDK's articles promise: a session can be bootstrapped as a sink.
@Suite("A render session as an event sink")
struct RenderSessionSinkTests {
    /// The titles of the activities that ended, kept where the test can read them once the
    /// renderer has been handed to the session.
    final class EndedTitles: Sendable {
        let titles = Mutex<[String]>([])
    }

    final class Recorder: ActivityRenderer {
        let ended: EndedTitles
        init(_ ended: EndedTitles) { self.ended = ended }

        func render(_ update: ActivityUpdate, in store: ActivityStore) {
            if update.kind == .end, let handle = update.handle, let activity = store[handle] {
                ended.titles.withLock { $0.append(activity.title) }
            }
        }
    }

    @Test("events sent to the session reach its renderers")
    func sentEventsAreRendered() {
        let ended = EndedTitles()
        let session = RenderSession(renderers: [Recorder(ended)], clock: { 1_800_000_000 })
        let sink: any ActivityEventSink = session
        let id = ActivityID("sink.1")!
        sink.send(.begin(.init(id: id, title: "Indexing")))
        sink.send(.end(.init(id: id, status: .success)))
        sink.flush(timeout: 1)
        session.finish()
        #expect(ended.titles.withLock { $0 } == ["Indexing"])
    }
}
