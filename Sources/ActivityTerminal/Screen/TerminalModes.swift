/// The modes a program turned on in its terminal, away from how a terminal starts (the
/// alternate screen, a hidden cursor, mouse reporting, bracketed paste, application cursor keys
/// and keypad, insert, no autowrap, origin mode, a scroll region), followed from the sequences
/// it writes; and the bytes that turn them off again and on again.
///
/// `activity run` follows what the command sends to the real terminal: when the command ends
/// or is stopped, whatever it left on is turned off (``resetSequence``), and `fg` turns it on
/// again (``setSequence``), as a terminal multiplexer does.
///
/// ```swift
/// var modes = TerminalModes()
/// modes.feed(Array("\u{1B}[?1049h\u{1B}[?25l".utf8))
/// modes.resetSequence  // ESC [ ? 25 h, ESC [ ? 1049 l
/// ```
package struct TerminalModes: Equatable, Sendable {
    /// The DEC private modes followed, with how a terminal starts: on for autowrap (7) and the
    /// visible cursor (25). Turned off in this order, on in the reverse one; the alternate screen
    /// is the last off (the others are undone on the screen the command used).
    static let privateModes: [(mode: Int, initial: Bool)] = [
        (1, false), (5, false), (6, false), (7, true), (9, false), (1000, false), (1001, false),
        (1002, false), (1003, false), (1004, false), (1005, false), (1006, false), (1015, false),
        (2004, false), (2026, false), (25, true), (1049, false), (1047, false), (47, false),
    ]

    /// The private modes away from their initial state.
    private(set) var changed: Set<Int> = []
    /// Application keypad (`ESC =`).
    package private(set) var applicationKeypad = false
    /// Insert mode (`CSI 4 h`).
    package private(set) var insert = false
    /// The scroll region (`CSI top ; bottom r`), as its parameters were given; nil for the whole
    /// screen.
    package private(set) var scrollRegion: (top: Int, bottom: Int)?
    private var parser = VTParser()

    package init() {}

    /// The modes that change what the terminal sends, not how it draws: cursor keys (1), mouse
    /// reporting (9, 1000–1006, 1015), bracketed paste (2004) and the keypad. `activity run` draws
    /// the command's main screen itself, so these are the only ones of its modes that reach the
    /// real terminal there (a scroll region or origin mode would move the live region around).
    package var keyboardAndMouse: TerminalModes {
        var modes = TerminalModes()
        modes.changed = changed.intersection(Self.inputModes)
        modes.applicationKeypad = applicationKeypad
        return modes
    }

    static let inputModes: Set<Int> = [1, 9, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1015, 2004]

    /// Whether a mode is away from how a terminal starts.
    package var isChanged: Bool { !changed.isEmpty || applicationKeypad || insert || scrollRegion != nil }

    /// Whether the command is on the alternate screen.
    package var isAlternateScreen: Bool { !changed.isDisjoint(with: [1049, 1047, 47]) }

    /// Follows the sequences in what the command wrote.
    package mutating func feed(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            var action = parser.take(byte)
            while let taken = action {
                switch taken {
                case .controlSequence: apply(parser.sequence)
                case .escape: applyEscape(parser.sequence)
                default: break
                }
                action = parser.takePending()
            }
        }
    }

    /// Follows one control sequence (a screen model hands over those it has read).
    package mutating func apply(_ sequence: VTParser.Sequence) {
        guard sequence.intermediates.isEmpty else { return }
        switch (sequence.marker, sequence.final) {
        case (UInt8(ascii: "?"), UInt8(ascii: "h")), (UInt8(ascii: "?"), UInt8(ascii: "l")):
            let on = sequence.final == UInt8(ascii: "h")
            for mode in sequence.parameters {
                guard let initial = Self.privateModes.first(where: { $0.mode == mode })?.initial else { continue }
                if on == initial { changed.remove(mode) } else { changed.insert(mode) }
            }
        case (0, UInt8(ascii: "h")), (0, UInt8(ascii: "l")):
            if sequence.parameters.contains(4) { insert = sequence.final == UInt8(ascii: "h") }
        case (0, UInt8(ascii: "r")):
            let top = sequence.parameter(0, default: 1)
            let bottom = sequence.parameter(1, default: 0)
            scrollRegion = top <= 1 && bottom == 0 ? nil : (max(1, top), bottom)
        default: break
        }
    }

    /// Follows one escape sequence: the keypad modes, and a full reset (`ESC c`).
    package mutating func applyEscape(_ sequence: VTParser.Sequence) {
        guard sequence.intermediates.isEmpty else { return }
        switch sequence.final {
        case UInt8(ascii: "="): applicationKeypad = true
        case UInt8(ascii: ">"): applicationKeypad = false
        case UInt8(ascii: "c"): self = TerminalModes()
        default: break
        }
    }

    /// The bytes that turn off what is on: everything is put back as a terminal starts, the
    /// alternate screen left last. Empty when nothing is on.
    package var resetSequence: [UInt8] {
        guard isChanged else { return [] }
        var bytes: [UInt8] = []
        if scrollRegion != nil {
            // DECSTBM homes the cursor: saved and restored around it, off the alternate screen.
            bytes += isAlternateScreen ? csi("r") : esc("7") + csi("r") + esc("8")
        }
        if insert { bytes += csi("4l") }
        if applicationKeypad { bytes += esc(">") }
        for (mode, initial) in Self.privateModes where changed.contains(mode) {
            bytes += csi("?\(mode)\(initial ? "h" : "l")")
        }
        return bytes
    }

    /// The bytes that turn on again what ``resetSequence`` turned off, the alternate screen first.
    package var setSequence: [UInt8] {
        guard isChanged else { return [] }
        var bytes: [UInt8] = []
        for (mode, initial) in Self.privateModes.reversed() where changed.contains(mode) {
            bytes += csi("?\(mode)\(initial ? "l" : "h")")
        }
        if applicationKeypad { bytes += esc("=") }
        if insert { bytes += csi("4h") }
        if let region = scrollRegion {
            let set = csi("\(region.top);\(region.bottom > 0 ? "\(region.bottom)" : "")r")
            bytes += isAlternateScreen ? set : esc("7") + set + esc("8")
        }
        return bytes
    }

    package static func == (left: TerminalModes, right: TerminalModes) -> Bool {
        left.changed == right.changed && left.applicationKeypad == right.applicationKeypad
            && left.insert == right.insert && left.scrollRegion?.top == right.scrollRegion?.top
            && left.scrollRegion?.bottom == right.scrollRegion?.bottom
    }

    private func csi(_ text: String) -> [UInt8] { [0x1B, UInt8(ascii: "[")] + Array(text.utf8) }
    private func esc(_ text: String) -> [UInt8] { [0x1B] + Array(text.utf8) }
}
