import ActivityRendering
import ActivityTerminal
import ActivityWire

/// The terminal overlay as a display of `render`, `run`, `replay` and `demo`: text lines and
/// problems in the stream are held while the overlay hides the session, and appear when it hides.
/// Both are sanitized: the overlay always draws on a terminal.
extension TerminalOverlayPresenter: Display {
    func passthrough(_ bytes: [UInt8], to stream: StandardStream) {
        passthrough(bytes, from: stream)
    }

    func report(_ diagnostic: Diagnostic) {
        show(Array(OverlayDiagnostic.line(diagnostic).utf8))
    }
}

/// The overlay-state stream as a display: standard output carries only overlay-state lines, so
/// text lines and problems in the stream go to standard error, sanitized when it is a terminal.
extension OverlayJSONLinesPresenter: Display {
    /// Byte for byte to a file or a pipe; on a terminal, each line sanitized, its `\n` kept. (An
    /// escape sequence cut across two writes loses its ESC either way, so nothing reaches the
    /// terminal whole.)
    func passthrough(_ bytes: [UInt8], to stream: StandardStream) {
        guard TerminalDevice.isTerminal(2) else { return _ = try? FileOutput.standardError.write(bytes) }
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let shown = lines.map { TerminalSanitizer.display(bytes: Array($0)) }.joined(separator: [UInt8(ascii: "\n")])
        try? FileOutput.standardError.write(Array(shown))
    }

    func report(_ diagnostic: Diagnostic) {
        try? FileOutput.standardError.write(OverlayDiagnostic.line(diagnostic) + "\n")
    }
}
