import ActivityTerminal
import ActivityWire

/// How the overlay displays tell the person watching about a problem in the stream, or about the
/// rendering itself.
enum OverlayDiagnostic {
    /// `activity: line 3: invalid-json: …`, on one line and safe for a terminal: a diagnostic
    /// quotes the producer's text, which may hold escape sequences.
    static func line(_ diagnostic: Diagnostic) -> String {
        "activity: line \(diagnostic.line): \(diagnostic.code.rawValue): \(TerminalSanitizer.display(diagnostic.message))"
    }

    /// `activity: warning: plugin notify exited with status 1`: a notice of the render session
    /// (a plugin that died, a history file that could not be read), sanitized.
    static func notice(_ message: String) -> String {
        "activity: warning: \(TerminalSanitizer.display(message))"
    }
}
