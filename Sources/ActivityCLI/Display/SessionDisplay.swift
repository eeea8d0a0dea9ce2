import ActivityRendering
import ActivityWire

/// A ``Display`` drawn by a `RenderSession`: terminal (tty or plain), log text or JSON lines on
/// standard error, plus any log file and plugins the options ask for.
final class SessionDisplay: Display {
    let session: RenderSession

    init(session: RenderSession) {
        self.session = session
    }

    func handle(_ event: ActivityEvent) { session.handle(event) }

    func handle(_ event: ActivityEvent, line: Int) { session.handle(event, line: line) }

    func handle(_ event: borrowing LineEvent, line: Int) { session.handle(event, line: line) }

    func passthrough(_ bytes: [UInt8], to stream: StandardStream) {
        session.passthrough(bytes, to: stream == .standardOutput ? .stdout : .stderr)
    }

    func isClosed(_ stream: StandardStream) -> Bool {
        session.isClosed(stream == .standardOutput ? .stdout : .stderr)
    }

    func report(_ diagnostic: Diagnostic) { session.report(diagnostic) }

    func finish() { session.finish() }
}
