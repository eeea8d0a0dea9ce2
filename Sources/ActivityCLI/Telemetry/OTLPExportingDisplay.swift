import ActivityPOSIX
import ActivityRendering
import ActivityTerminal
import ActivityWire
import Synchronization

/// A display that also sends every activity to an OpenTelemetry Collector as it ends: the hook
/// for `--otlp-endpoint` on `run`, `render`, `replay` and `demo`.
///
/// It wraps the display the options chose and passes every call on unchanged; the exporter sees
/// the same events and works on its own thread. Its warnings appear above the live region
/// while the display runs, and on standard error once it is finishing (after its last lines:
/// a finished display takes no more).
final class OTLPExportingDisplay: Display {
    private let inner: any Display
    private let warnings: Warnings
    let exporter: OTLPLiveExporter

    /// Where the exporter's warnings go: the display while it runs; kept while it finishes;
    /// standard error after.
    private final class Warnings: Sendable {
        enum Phase { case running, finishing, finished }
        let state = Mutex<(phase: Phase, kept: [String])>((.running, []))
    }

    init(_ inner: any Display, settings: OTLPSettings) {
        let warnings = Warnings()
        self.inner = inner
        self.warnings = warnings
        exporter = OTLPLiveExporter(settings: settings) { [inner] message in
            // Passed on under the lock: a finish that begins meanwhile waits for it.
            let finished = warnings.state.withLock { state in
                switch state.phase {
                case .running: inner.passthrough(Array(Console.shown("activity: " + message).utf8), to: .stderr)
                case .finishing: state.kept.append(message)
                case .finished: return true
                }
                return false
            }
            if finished { Console.error(message) }
        }
    }

    func handle(_ event: ActivityEvent) {
        let event = Self.stamped(event)
        inner.handle(event)
        exporter.handle(event)
    }

    func handle(_ event: ActivityEvent, line: Int) {
        let event = Self.stamped(event)
        inner.handle(event, line: line)
        exporter.handle(event)
    }

    /// A reporter's event is exported only when the display took it: not another reporter's.
    func handle(_ event: ActivityEvent, line: Int, sender: Int32, owner: ActivityOwner?) -> Bool {
        let event = Self.stamped(event)
        guard inner.handle(event, line: line, sender: sender, owner: owner) else { return false }
        exporter.handle(event)
        return true
    }

    func handle(_ event: borrowing LineEvent, line: Int, sender: Int32) -> Bool {
        handle(event.event(), line: line, sender: sender, owner: .connection(sender))
    }

    /// What the display ended as abandoned ends so in the export too, at the same time.
    func abandon(ownedBy owner: ActivityOwner, at time: Double) -> [ActivityID] {
        let ended = inner.abandon(ownedBy: owner, at: time)
        for id in ended {
            exporter.handle(.end(.init(id: id, status: .abandoned, message: "its reporter went away", timestamp: time)))
        }
        return ended
    }

    func activity(_ id: ActivityID) -> ActivityState? { inner.activity(id) }

    /// One arrival time for both sides, so the spans sent and a recording made with
    /// `--log-file` agree to the microsecond.
    private static func stamped(_ event: ActivityEvent) -> ActivityEvent {
        guard event.timestamp == nil else { return event }
        var event = event
        event.timestamp = SystemClock.unixTimestamp()
        return event
    }

    func passthrough(_ bytes: [UInt8], to stream: StandardStream) { inner.passthrough(bytes, to: stream) }

    func writeFailure(_ stream: StandardStream) -> Int32? { inner.writeFailure(stream) }

    func logFileFailure() -> (path: String, error: Int32)? { inner.logFileFailure() }

    func flushOutput() { inner.flushOutput() }

    var outputIsBehind: Bool { inner.outputIsBehind }

    func commandOutput(_ piece: CommandOutput) { inner.commandOutput(piece) }

    func attributeOutput(to id: ActivityID?) { inner.attributeOutput(to: id) }

    func suspend() { inner.suspend() }

    func resume() { inner.resume() }

    func offerCancelKey(_ offered: Bool) { inner.offerCancelKey(offered) }

    func pressCancelKey() -> Bool { inner.pressCancelKey() }

    var drawsOnTerminal: Bool { inner.drawsOnTerminal }

    func report(_ diagnostic: Diagnostic) { inner.report(diagnostic) }

    func report(_ diagnostic: Diagnostic, sender: Int32) { inner.report(diagnostic, sender: sender) }

    func name(sender: Int32, as name: String?) { inner.name(sender: sender, as: name) }

    /// The display finishes first, so the final frame is not held up by the network.
    func finish() {
        warnings.state.withLock { $0.phase = .finishing }
        inner.finish()
        let kept = warnings.state.withLock { state in
            state.phase = .finished
            return state.kept
        }
        for message in kept { Console.error(message) }
        exporter.finish()
    }
}
