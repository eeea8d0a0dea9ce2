/// One cell of a ``CommandScreen``: a grapheme cluster, the columns it takes, its style.
package struct ScreenCell: Hashable, Sendable {
    /// What the cell shows; a space when blank, and for the right half of a wide character.
    package var character: Character
    /// 1, 2 for a wide character, 0 for the column a wide character's right half covers.
    package var width: UInt8
    package var style: CellStyle

    package init(_ character: Character, width: UInt8 = 1, style: CellStyle = CellStyle()) {
        self.character = character
        self.width = width
        self.style = style
    }

    /// A blank cell, in the style an erase leaves.
    package static func blank(_ style: CellStyle = CellStyle()) -> ScreenCell { ScreenCell(" ", style: style) }

    /// Whether the cell shows nothing: a space in the default style.
    package var isBlank: Bool { width == 1 && character == " " && style.isDefault }
}

/// One row of a ``CommandScreen``: its cells, and whether the text in it went on into the next
/// row by autowrap.
package struct ScreenRow: Hashable, Sendable {
    package var cells: [ScreenCell]
    /// The row's text continues in the next row: the cursor wrapped from its last column.
    package var wrapped = false

    package init(columns: Int, style: CellStyle = CellStyle()) {
        cells = Array(repeating: .blank(style), count: columns)
    }

    /// Whether every cell is blank.
    package var isBlank: Bool { cells.allSatisfy(\.isBlank) }

    /// The row's text, trailing spaces dropped (as `tmux capture-pane -p` shows it).
    package var text: String {
        var text = ""
        for cell in cells where cell.width > 0 { text.append(cell.character) }
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The bytes that draw the row on a terminal from its first column with the default style,
    /// and leave the default style: its text with the SGR sequences its styles need, nothing for
    /// plain text, no erase. Trailing blank cells are left out; blanks with a background colour
    /// are written as spaces in it.
    package var bytes: [UInt8] {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return bytes
    }

    /// Appends ``bytes`` to `bytes`.
    package func append(to bytes: inout [UInt8]) {
        var end = cells.count
        while end > 0, cells[end - 1].isBlank { end -= 1 }
        var style = CellStyle()
        for cell in cells[..<end] where cell.width > 0 {
            if cell.style != style {
                bytes += style.transition(to: cell.style)
                style = cell.style
            }
            if let ascii = cell.character.asciiValue {
                bytes.append(ascii)
            } else {
                bytes += cell.character.utf8
            }
        }
        if !style.isDefault { bytes += style.transition(to: CellStyle()) }
    }

    /// The row cut or padded with blanks to `columns`; a wide character cut in half is blanked.
    mutating func resize(to columns: Int) {
        if columns < cells.count {
            cells.removeLast(cells.count - columns)
            if let last = cells.last, last.width == 2 { cells[columns - 1] = .blank(last.style.erased) }
            wrapped = false
        } else if columns > cells.count {
            cells += Array(repeating: .blank(), count: columns - cells.count)
            wrapped = false
        }
    }
}
