import ActivityRendering
import ActivityTerminal
import ActivityWire

/// The terminal overlay as the display of a render session (`--mode overlay` of `render`, `run`,
/// `replay` and `demo`): text lines, problems in the stream and the session's notices are held
/// while the overlay hides the session, and appear when it hides. All are sanitized: the overlay
/// always draws on a terminal. The presenter keeps its own clock and thread for the overlay's
/// timing, so it asks the session for no ticks.
extension TerminalOverlayPresenter: ActivityRenderer {
    func render(_ update: ActivityUpdate, in store: ActivityStore) {
        handle(update.event(in: store))
    }

    func passthrough(_ bytes: [UInt8], to stream: StandardStream, in store: ActivityStore) {
        passthrough(bytes, from: stream)
    }

    func report(_ diagnostic: Diagnostic, in store: ActivityStore) {
        show(Array(OverlayDiagnostic.line(diagnostic).utf8))
    }

    func notice(_ message: String, in store: ActivityStore) {
        show(Array(OverlayDiagnostic.notice(message).utf8))
    }

    func finish(_ store: ActivityStore, now: Double) {
        finish()
    }
}

/// The overlay-state stream as the display of a render session (`--mode overlay-jsonl`): standard
/// output carries only overlay-state lines, so text lines, problems in the stream and the
/// session's notices go to standard error, sanitized when it is a terminal.
extension OverlayJSONLinesPresenter: ActivityRenderer {
    func render(_ update: ActivityUpdate, in store: ActivityStore) {
        handle(update.event(in: store))
    }

    /// Byte for byte to a file or a pipe; on a terminal, each line sanitized, its `\n` kept. (An
    /// escape sequence cut across two writes loses its ESC either way, so nothing reaches the
    /// terminal whole.)
    func passthrough(_ bytes: [UInt8], to stream: StandardStream, in store: ActivityStore) {
        guard TerminalDevice.isTerminal(2) else { return _ = try? FileOutput.standardError.write(bytes) }
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let shown = lines.map { TerminalSanitizer.display(bytes: Array($0)) }.joined(separator: [UInt8(ascii: "\n")])
        try? FileOutput.standardError.write(Array(shown))
    }

    func report(_ diagnostic: Diagnostic, in store: ActivityStore) {
        try? FileOutput.standardError.write(OverlayDiagnostic.line(diagnostic) + "\n")
    }

    func notice(_ message: String, in store: ActivityStore) {
        try? FileOutput.standardError.write(OverlayDiagnostic.notice(message) + "\n")
    }

    func finish(_ store: ActivityStore, now: Double) {
        finish()
    }
}
