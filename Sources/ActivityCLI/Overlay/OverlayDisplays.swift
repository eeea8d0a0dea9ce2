import ActivityWire

/// The terminal overlay as a display of `render`, `run`, `replay` and `demo`: text lines and
/// problems in the stream are held while the overlay hides the session, and appear when it hides.
extension TerminalOverlayPresenter: Display {
    func passthrough(_ line: [UInt8], to stream: StandardStream) {
        passthrough(line)
    }

    func report(_ diagnostic: Diagnostic) {
        passthrough(Array("activity: line \(diagnostic.line): \(diagnostic.code.rawValue): \(diagnostic.message)".utf8))
    }
}

/// The overlay-state stream as a display: standard output carries only overlay-state lines, so
/// text lines and problems in the stream go to standard error.
extension OverlayJSONLinesPresenter: Display {
    func passthrough(_ line: [UInt8], to stream: StandardStream) {
        try? FileOutput.standardError.write(line + [UInt8(ascii: "\n")])
    }

    func report(_ diagnostic: Diagnostic) {
        try? FileOutput.standardError.write(
            "activity: line \(diagnostic.line): \(diagnostic.code.rawValue): \(diagnostic.message)\n")
    }
}
