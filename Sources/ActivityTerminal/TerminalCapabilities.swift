/// What the environment lets a display use: Unicode glyphs, colour, cursor movement.
///
/// One rule for every display (the terminal renderer, plain lines, the overlay):
/// - **Unicode** when the first set of `LC_ALL`, `LC_CTYPE` and `LANG` names UTF-8; ASCII
///   otherwise.
/// - **Colour** on a terminal, unless `NO_COLOR` is set and not empty or `CLICOLOR` is `0`.
///   `CLICOLOR_FORCE` (set, not `0`) turns colour on over `CLICOLOR=0` and on a non-terminal,
///   never over `NO_COLOR`.
/// - **Cursor movement** unless `TERM` is `dumb`.
///
/// ```swift
/// let capabilities = TerminalCapabilities.detect(environment: ["LANG": "C.UTF-8"], isTerminal: true)
/// capabilities.unicode   // true
/// capabilities.color     // true
/// ```
package struct TerminalCapabilities: Sendable, Hashable {
    /// Whether UTF-8 text (box drawing, braille, `…`) can be shown.
    package var unicode: Bool
    /// Whether SGR colour sequences may be written.
    package var color: Bool
    /// Whether the terminal can move the cursor (`TERM` is not `dumb`).
    package var cursorMovement: Bool

    package init(unicode: Bool, color: Bool, cursorMovement: Bool = true) {
        self.unicode = unicode
        self.color = color
        self.cursorMovement = cursorMovement
    }

    /// The capabilities `environment` asks for, for output that is a terminal or not.
    package static func detect(environment: [String: String], isTerminal: Bool = true) -> TerminalCapabilities {
        TerminalCapabilities(
            unicode: localeIsUTF8(environment), color: colorAllowed(environment, isTerminal: isTerminal),
            cursorMovement: environment["TERM"] != "dumb")
    }

    static func localeIsUTF8(_ environment: [String: String]) -> Bool {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let lower = value.lowercased()
            return lower.contains("utf-8") || lower.contains("utf8")
        }
        return false
    }

    static func colorAllowed(_ environment: [String: String], isTerminal: Bool) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" { return true }
        return isTerminal && environment["CLICOLOR"] != "0"
    }
}
