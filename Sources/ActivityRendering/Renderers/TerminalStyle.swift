import ActivityTerminal
import ActivityWire

/// The glyphs and colours the terminal renderer draws with.
///
/// ```swift
/// let style = TerminalStyle(unicode: true, color: false)
/// style.symbol(for: .failure)   // "✖"
/// ```
///
/// ``color`` decides whether anything is coloured; ``colors`` decides with what.
package struct TerminalStyle: Sendable, Hashable {
    /// Whether to draw with Unicode glyphs (`✔`, braille spinner, block bar) or ASCII only.
    package var unicode: Bool
    /// Whether to colour the output with SGR sequences (never in plain mode).
    package var color: Bool
    /// The colour of each part of the display, when ``color`` is on.
    package var colors: ColorTheme

    package init(unicode: Bool, color: Bool, colors: ColorTheme = ColorTheme()) {
        self.unicode = unicode
        self.color = color
        self.colors = colors
    }

    /// The style the environment asks for, for a display that is a terminal.
    ///
    /// Unicode when the first set of `LC_ALL`, `LC_CTYPE` and `LANG` names UTF-8. Colour unless
    /// `NO_COLOR` is set and not empty, or `CLICOLOR` is `0`; `CLICOLOR_FORCE` (not `0`) turns it
    /// back on over `CLICOLOR=0`, never over `NO_COLOR`. The colours are those of
    /// `ACTIVITY_COLORS` (see ``ColorTheme/parse(_:over:)``; entries it cannot use are ignored).
    package static func detect(environment: [String: String]) -> TerminalStyle {
        detect(environment: environment, isTerminal: true).style
    }

    /// The style the environment asks for, for a display that is a terminal or not: no colour on
    /// a non-terminal unless `CLICOLOR_FORCE` asks for it. `colorWarning` names the entries of
    /// `ACTIVITY_COLORS` that were ignored; it is read only when colour is on.
    package static func detect(
        environment: [String: String], isTerminal: Bool
    ) -> (style: TerminalStyle, colorWarning: String?) {
        let capabilities = TerminalCapabilities.detect(environment: environment, isTerminal: isTerminal)
        var style = TerminalStyle(unicode: capabilities.unicode, color: capabilities.color)
        guard style.color else { return (style, nil) }
        let (colors, warning) = ColorTheme.detect(environment: environment)
        style.colors = colors
        return (style, warning)
    }

    // MARK: - Glyphs

    static let brailleSpinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    static let asciiSpinner = ["|", "/", "-", "\\"]

    /// The spinner frame for wall-clock time `now`: every spinner turns together, 12.5 frames a
    /// second, however often frames are drawn.
    package func spinner(at now: Double) -> String {
        let frames = unicode ? Self.brailleSpinner : Self.asciiSpinner
        let tick = Int(saturating: now * 12.5, rounding: .down) % frames.count
        return frames[(tick + frames.count) % frames.count]
    }

    /// The mark of a finished activity.
    package func symbol(for status: ActivityStatusMark) -> String {
        switch (status, unicode) {
        case (.success, true): "✔"
        case (.failure, true): "✖"
        case (.cancelled, true): "⊘"
        case (.skipped, true): "↷"
        case (.abandoned, _): "?"
        case (.started, true): "▶"
        case (.success, false): "+"
        case (.failure, false): "x"
        case (.cancelled, false): "/"
        case (.skipped, false): "-"
        case (.started, false): ">"
        }
    }

    /// The separator between the titles of a path: `Build › Compile`.
    var pathSeparator: String { unicode ? " › " : " > " }
    var ellipsis: String { unicode ? "…" : "..." }
    var dot: String { unicode ? " · " : ", " }
    var dash: String { unicode ? "—" : "--" }

    /// A bar of `width` columns, `fraction` full: the filled part and the empty part.
    func bar(_ fraction: Double, width: Int) -> (filled: String, empty: String, emptyWidth: Int) {
        let fraction = min(1, max(0, fraction))
        let width = min(max(0, width), Self.barPieces.count - 1)
        guard unicode else {
            let full = Int(saturating: fraction * Double(width), rounding: .down)
            return (Self.hashes[full], Self.dashes[width - full], width - full)
        }
        let eighths = Int(saturating: fraction * Double(width * 8), rounding: .down)
        let full = eighths / 8
        var used = full
        var partial = 0
        if full < width, eighths % 8 > 0 {
            partial = eighths % 8
            used += 1
        }
        return (Self.filledPieces[full * 8 + partial], (color ? Self.lines : Self.shades)[width - used], width - used)
    }

    private static func pieces(_ glyph: String) -> [String] { (0...64).map { String(repeating: glyph, count: $0) } }
    private static let barPieces = pieces("█")
    /// `barPieces[full] + eighths[partial]` at `full * 8 + partial`.
    private static let filledPieces: [String] = (0..<(barPieces.count * 8)).map { index in
        barPieces[index / 8] + eighths[index % 8]
    }
    private static let shades = pieces("░")
    private static let lines = pieces("━")
    private static let hashes = pieces("#")
    private static let dashes = pieces("-")
    private static let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    // MARK: - Colours

    /// The colours in use: ``colors`` when ``color`` is on, `nil` when nothing is coloured.
    var activeColors: ColorTheme? { color ? colors : nil }

    /// The role of a finished activity's mark.
    func role(for status: ActivityStatusMark) -> ColorRole {
        switch status {
        case .success: .success
        case .failure: .failure
        case .cancelled, .abandoned: .cancelled
        case .skipped: .skipped
        // Begin marks appear only in plain lines, which are never coloured.
        case .started: .spinner
        }
    }
}

/// The mark at the start of a begin or end line.
package enum ActivityStatusMark: Sendable, Hashable {
    case started, success, failure, cancelled, skipped, abandoned
}
