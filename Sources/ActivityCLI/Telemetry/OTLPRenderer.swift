import ActivityRendering
import ActivityWire
import Synchronization

/// Live OTLP export (`--otlp-endpoint` of `run`, `render`, `replay` and `demo`) as a renderer of
/// the render session, beside its display and log file (``RenderOptions``' `renderers`).
///
/// It follows what the store accepted, as every renderer does: a reporter's event only when the
/// session took it (not another reporter's), with the arrival time the session stamped (so the
/// spans and a `--log-file` recording agree to the microsecond), and the `abandoned` ends the
/// store makes up for a reporter that went away and for what is open at the end.
/// ``OTLPLiveExporter`` turns each activity that ends into a span, on the session's thread in
/// microseconds, and sends the spans on a thread of its own: nothing here waits for the network.
///
/// Its warnings appear above the live region while the session runs (``warn(on:)``), and on
/// standard error once it is finishing, after its last lines (a finished session takes no more).
final class OTLPRenderer: ActivityRenderer, Sendable {
    let exporter: OTLPLiveExporter
    private let warnings: Warnings

    /// Where the exporter's warnings go: the session while it runs; kept while it finishes (and
    /// until the session is known); standard error after.
    private final class Warnings: Sendable {
        enum Phase { case running, finishing, finished }
        struct State {
            var phase = Phase.running
            var kept: [String] = []
            /// Weak: the session holds this renderer.
            weak var session: RenderSession?
        }
        let state = Mutex(State())
    }

    /// - Parameter post: how requests are sent (``OTLPLiveExporter/Post``); ``HTTPPoster`` by default.
    init(settings: OTLPSettings, post: OTLPLiveExporter.Post? = nil) {
        let warnings = Warnings()
        self.warnings = warnings
        exporter = OTLPLiveExporter(settings: settings, post: post) { message in
            // Passed on under the lock: a finish that begins meanwhile waits for it.
            let finished = warnings.state.withLock { state in
                switch (state.phase, state.session) {
                case (.running, let session?):
                    session.passthrough(Array(Console.shown("activity: " + message).utf8), to: .stderr)
                case (.running, nil), (.finishing, _): state.kept.append(message)
                case (.finished, _): return true
                }
                return false
            }
            if finished { Console.error(message) }
        }
    }

    func render(_ update: ActivityUpdate, in store: ActivityStore) {
        exporter.handle(update.event(in: store))
    }

    /// Draws the warnings on `session`, the session this renderer is in, while it runs.
    func warn(on session: RenderSession) {
        warnings.state.withLock { $0.session = session }
    }

    /// Finishes the session with `finishSession` first, so that its final frame is not held up by
    /// the network; then says what was kept, and waits a bounded time for the spans still to be
    /// sent (``OTLPLiveExporter/finish()``).
    func finish(after finishSession: () -> Void) {
        warnings.state.withLock { $0.phase = .finishing }
        finishSession()
        let kept = warnings.state.withLock { state in
            defer { state.kept = [] }
            state.phase = .finished
            state.session = nil
            return state.kept
        }
        for message in kept { Console.error(message) }
        exporter.finish()
    }
}
