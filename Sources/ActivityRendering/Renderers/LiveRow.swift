import ActivityTerminal
import ActivityWire

/// One running activity's parts for a frame, measured, before the frame's columns are laid out.
struct LiveRow {
    /// A part of the line with its display width, measured once.
    struct Part {
        var text: String
        var width: Int

        init(text: String, width: Int) {
            self.text = text
            self.width = width
        }

        init?(_ text: String?) {
            guard let text, !text.isEmpty else { return nil }
            self.text = text
            self.width = DisplayWidth.of(text)
        }
    }

    let cache: ActivityLineCache
    /// Two columns per level, at most 32.
    let indentWidth: Int
    let isTopLevel: Bool
    let fraction: Double?
    var percent: Part?
    var counts: Part?
    var rate: Part?
    var eta: Part?
    /// Whether ``eta`` is an estimate from the history (`usually 2m10s`), coloured as such.
    var etaIsUsual = false
    var elapsed: Part?
    /// The activity's ``ActivityState/sequence``: whose output tail follows the row.
    var sequence = 0

    /// The column where the title would end, uncut: after the indentation, the spinner and its
    /// space.
    var titleEnd: Int { indentWidth + 2 + cache.text.titleWidth }
}
