import ActivityTerminal
import ActivityWire

/// Why a ``RenderSession`` (or one of its renderers) could not be set up, by kind, so that a
/// caller maps it to an exit status or a message without probing in advance.
public enum RenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The log file cannot be opened for appending.
    case logFile(path: String, reason: String)
    /// The plugin's name is not a plain word.
    case pluginName(String)
    /// No executable `activity-render-NAME` on `PATH`.
    case pluginNotFound(name: String, program: String)
    /// The plugin was found but could not be started.
    case pluginFailed(name: String, reason: String)

    /// What went wrong, for a person.
    public var message: String {
        switch self {
        case .logFile(let path, let reason): "cannot open the log file \(TerminalSanitizer.escaped(path)): \(reason)"
        case .pluginName(let name):
            "invalid plugin name \"\(name)\": use letters, digits, '.', '_' and '-'"
        case .pluginNotFound(let name, let program): "plugin \"\(name)\" not found: no executable \(program) on PATH"
        case .pluginFailed(let name, let reason): "cannot start plugin \"\(name)\": \(reason)"
        }
    }

    public var description: String { message }
}
