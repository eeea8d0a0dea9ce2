/// What the control sequences of a line drawn in place say: a library that redraws several rows
/// on a terminal (rich, indicatif) moves back over its last frame before it draws the next, with
/// `ESC [2K` (erase the row), `ESC [1A` and `ESC [1B` (a row up, down) between `\r`s, which the
/// pipeline cuts into lines of their own or leaves at the start or end of a row's line.
enum RedrawnLine {
    /// Whether the line begins by erasing its row (`ESC [2K`), or is the top row the command
    /// redraws on its screen (``ScreenPlace/index`` 0): the first row of a new frame.
    static func startsFrame(_ line: AdapterLine) -> Bool {
        line.row?.index == 0
            || line.bytes.starts(with: [0x1B, UInt8(ascii: "["), UInt8(ascii: "2"), UInt8(ascii: "K")])
    }

    /// Whether the line is control sequences only, nothing visible (what is left of a frame's
    /// moves when they come between two `\r`s).
    static func isControlOnly(_ line: AdapterLine) -> Bool {
        line.bytes.first == 0x1B && line.text.isEmpty
    }

    /// Whether the line holds `sequence` (`ESC [?25h`, the cursor shown again).
    static func contains(_ line: AdapterLine, _ sequence: String) -> Bool {
        let needle = Array(sequence.utf8)
        guard !needle.isEmpty, line.bytes.count >= needle.count else { return false }
        return line.bytes.indices.dropLast(needle.count - 1).contains { start in
            line.bytes[start..<start + needle.count].elementsEqual(needle)
        }
    }
}
