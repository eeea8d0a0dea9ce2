import ActivityTerminal

/// The glyphs and colours the terminal renderer draws with.
///
/// ```swift
/// let style = TerminalStyle(unicode: true, color: false)
/// style.symbol(for: .failure)   // "✖"
/// ```
public struct TerminalStyle: Sendable, Hashable {
    /// Whether to draw with Unicode glyphs (`✔`, braille spinner, block bar) or ASCII only.
    public var unicode: Bool
    /// Whether to colour the output with SGR sequences (never in plain mode).
    public var color: Bool

    public init(unicode: Bool, color: Bool) {
        self.unicode = unicode
        self.color = color
    }

    /// The style the environment asks for, for a display that is a terminal.
    ///
    /// Unicode when the first set of `LC_ALL`, `LC_CTYPE` and `LANG` names UTF-8. Colour unless
    /// `NO_COLOR` is set and not empty, or `CLICOLOR` is `0`; `CLICOLOR_FORCE` (not `0`) turns it
    /// back on over `CLICOLOR=0`, never over `NO_COLOR`.
    public static func detect(environment: [String: String]) -> TerminalStyle {
        detect(environment: environment, isTerminal: true)
    }

    /// The style the environment asks for, for a display that is a terminal or not: no colour on
    /// a non-terminal unless `CLICOLOR_FORCE` asks for it.
    package static func detect(environment: [String: String], isTerminal: Bool) -> TerminalStyle {
        let capabilities = TerminalCapabilities.detect(environment: environment, isTerminal: isTerminal)
        return TerminalStyle(unicode: capabilities.unicode, color: capabilities.color)
    }

    // MARK: - Glyphs

    static let brailleSpinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    static let asciiSpinner = ["|", "/", "-", "\\"]

    /// The spinner frame for wall-clock time `now`: every spinner turns together, 12.5 frames a
    /// second, however often frames are drawn.
    public func spinner(at now: Double) -> String {
        let frames = unicode ? Self.brailleSpinner : Self.asciiSpinner
        let tick = Int((now * 12.5).rounded(.down)) % frames.count
        return frames[(tick + frames.count) % frames.count]
    }

    /// The mark of a finished activity.
    public func symbol(for status: ActivityStatusMark) -> String {
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
            let full = Int((fraction * Double(width)).rounded(.down))
            return (Self.hashes[full], Self.dashes[width - full], width - full)
        }
        let eighths = Int((fraction * Double(width * 8)).rounded(.down))
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

    /// SGR parameters for each part of the display. Only red, green, magenta and cyan are
    /// used as foregrounds: each reads at 3:1 or better on the dark and light palettes the
    /// contrast test checks. Yellow is not: GNOME's Tango yellow on white is 2.5:1, so warnings
    /// and cancelled marks are magenta, as GCC's warnings are.
    enum Paint: String, CaseIterable {
        case none = ""
        case dim = "2"
        case bold = "1"
        case red = "31"
        case green = "32"
        case magenta = "35"
        case cyan = "36"
        case boldRed = "1;31"

        /// `CSI <parameters> m`, the sequence that switches the paint on.
        var sgrText: StaticString {
            switch self {
            case .none: "\u{1B}[m"
            case .dim: "\u{1B}[2m"
            case .bold: "\u{1B}[1m"
            case .red: "\u{1B}[31m"
            case .green: "\u{1B}[32m"
            case .magenta: "\u{1B}[35m"
            case .cyan: "\u{1B}[36m"
            case .boldRed: "\u{1B}[1;31m"
            }
        }

        /// `CSI <parameters> m`, the bytes that switch the paint on.
        var sgr: [UInt8] {
            switch self {
            case .none: Self.sgrNone
            case .dim: Self.sgrDim
            case .bold: Self.sgrBold
            case .red: Self.sgrRed
            case .green: Self.sgrGreen
            case .magenta: Self.sgrMagenta
            case .cyan: Self.sgrCyan
            case .boldRed: Self.sgrBoldRed
            }
        }

        private static func sequence(_ paint: Paint) -> [UInt8] { [0x1B, 0x5B] + Array(paint.rawValue.utf8) + [0x6D] }
        private static let sgrNone = sequence(.none)
        private static let sgrDim = sequence(.dim)
        private static let sgrBold = sequence(.bold)
        private static let sgrRed = sequence(.red)
        private static let sgrGreen = sequence(.green)
        private static let sgrMagenta = sequence(.magenta)
        private static let sgrCyan = sequence(.cyan)
        private static let sgrBoldRed = sequence(.boldRed)
    }

    func paint(for status: ActivityStatusMark) -> Paint {
        switch status {
        case .success: .green
        case .failure: .red
        case .cancelled: .magenta
        case .skipped: .dim
        case .abandoned: .magenta
        case .started: .cyan
        }
    }
}

/// The mark at the start of a begin or end line.
public enum ActivityStatusMark: Sendable, Hashable {
    case started, success, failure, cancelled, skipped, abandoned
}
