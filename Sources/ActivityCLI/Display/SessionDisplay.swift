import ActivityRendering
import ActivityTerminal
import ActivityWire

/// A ``Display`` drawn by a `RenderSession`: terminal (tty or plain), log text or JSON lines on
/// standard error, or an overlay (``TerminalOverlayPresenter``, ``OverlayJSONLinesPresenter``),
/// plus any log file, plugins and history file the options ask for.
final class SessionDisplay: Display {
    let session: RenderSession

    init(session: RenderSession) {
        self.session = session
    }

    func handle(_ event: ActivityEvent) { session.handle(event) }

    func handle(_ event: ActivityEvent, line: Int) { session.handle(event, line: line) }

    func handle(_ event: borrowing LineEvent, line: Int) { session.handle(event, line: line) }

    func handle(_ event: ActivityEvent, line: Int, sender: Int32, owner: ActivityOwner?) -> Bool {
        session.handle(event, line: line, sender: sender, owner: owner)
    }

    func handle(_ event: borrowing LineEvent, line: Int, sender: Int32) -> Bool {
        session.handle(event, line: line, sender: sender)
    }

    func abandon(ownedBy owner: ActivityOwner, at time: Double) -> [ActivityID] {
        session.abandon(ownedBy: owner, at: time)
    }

    func activity(_ id: ActivityID) -> ActivityState? { session.activity(id) }

    func passthrough(_ bytes: [UInt8], to stream: StandardStream) {
        session.passthrough(bytes, to: stream)
    }

    func writeFailure(_ stream: StandardStream) -> Int32? {
        session.writeFailure(stream)
    }

    func logFileFailure() -> (path: String, error: Int32)? { session.logFileFailure() }

    func flushOutput() { session.flushOutput() }

    var outputIsBehind: Bool { session.outputIsBehind }

    func report(_ diagnostic: Diagnostic) { session.report(diagnostic) }

    func report(_ diagnostic: Diagnostic, sender: Int32) { session.report(diagnostic, sender: sender) }

    func name(sender: Int32, as name: String?) { session.name(sender: sender, as: name) }

    func commandOutput(_ piece: CommandOutput) { session.commandOutput(piece) }

    func attributeOutput(to id: ActivityID?) { session.attributeOutput(to: id) }

    func suspend() { session.suspendDrawing() }

    func resume() { session.resumeDrawing() }

    func offerCancelKey(_ offered: Bool) { session.offerCancelKey(offered) }

    func pressCancelKey() -> Bool { session.pressCancelKey() }

    /// Whether the live display draws on a terminal: `activity run` then gives the command a
    /// pseudo-terminal of its own.
    var drawsOnTerminal: Bool { session.mode == .tty }

    func finish() { session.finish() }
}
