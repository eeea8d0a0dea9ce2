import ActivityTerminal
import ActivityWire

/// The terminal overlay as a display of `render`, `run`, `replay` and `demo`: text lines and
/// problems in the stream are held while the overlay hides the session, and appear when it hides.
/// Both are sanitized: the overlay always draws on a terminal.
extension TerminalOverlayPresenter: Display {
    func passthrough(_ line: [UInt8], to stream: StandardStream) {
        passthrough(line)
    }

    func report(_ diagnostic: Diagnostic) {
        passthrough(Array(OverlayDiagnostic.line(diagnostic).utf8))
    }
}

/// The overlay-state stream as a display: standard output carries only overlay-state lines, so
/// text lines and problems in the stream go to standard error, sanitized when it is a terminal.
extension OverlayJSONLinesPresenter: Display {
    func passthrough(_ line: [UInt8], to stream: StandardStream) {
        let text = TerminalDevice.isTerminal(2) ? TerminalSanitizer.display(bytes: line) : line
        try? FileOutput.standardError.write(text + [UInt8(ascii: "\n")])
    }

    func report(_ diagnostic: Diagnostic) {
        try? FileOutput.standardError.write(OverlayDiagnostic.line(diagnostic) + "\n")
    }
}
