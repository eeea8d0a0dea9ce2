/// One row of a ``CommandScreen``: its cells, and whether the text in it went on into the next
/// row by autowrap.
package struct ScreenRow: Hashable, Sendable {
    package internal(set) var cells: [ScreenCell] {
        // Any edit of a cell makes the row's bytes its cells' again.
        didSet { hasPlainText = false }
    }
    /// The row's bytes (``bytes``), kept while ``hasPlainText``: a row written whole from a line
    /// of plain text (``writeASCII(_:)``) and not edited since is drawn, and read by adapters,
    /// by copying them rather than by reading its cells again. Not part of the row's equality.
    private(set) var plainText: [UInt8] = []
    private(set) var hasPlainText = false
    /// The row's text continues in the next row: the cursor wrapped from its last column.
    package var wrapped = false
    /// The cells from here on are blank: a bound that every edit keeps (it may be above the
    /// last cell not blank), so that a row of a few characters costs a few cells to read, copy
    /// and blank again, not the width of the screen.
    var extent: Int
    /// The row's identity: given when the row comes onto the screen (at the bottom as the screen
    /// scrolls up, at the top as it scrolls down, or when the screen grows) and kept while it
    /// moves and is redrawn, so that what reads the screen knows a bar redrawn in place, and
    /// moved up by scrolling, is the same row. Not part of the row's equality.
    package internal(set) var number = 0
    /// Text was written from the row's first column after a `\r`: it is a line of its own,
    /// though the row above wrapped into it (a bar wider than the screen, redrawn after `\r`,
    /// starts again on the row it had wrapped into).
    package internal(set) var startsLine = false

    package init(columns: Int, style: CellStyle = CellStyle(), number: Int = 0) {
        cells = Array(repeating: .blank(style), count: columns)
        extent = style.isDefault ? 0 : columns
        self.number = number
    }

    /// Whether every cell is blank.
    package var isBlank: Bool { cells[..<extent].allSatisfy(\.isBlank) }

    /// Blanks every cell in `style`, keeping the row's storage.
    mutating func clear(_ style: CellStyle) {
        let end = style.isDefault ? extent : cells.count
        cells.withUnsafeMutableBufferPointer { cells in
            for column in 0..<end { cells[column] = .blank(style) }
        }
        extent = style.isDefault ? 0 : cells.count
        wrapped = false
        startsLine = false
    }

    /// How many blank cells end the row: part of its text when it wraps into the next one
    /// (``bytes`` leaves them out).
    package var trailingBlankCount: Int {
        var count = 0
        while count < cells.count, cells[cells.count - 1 - count].isBlank { count += 1 }
        return count
    }

    /// Whether the row's text goes on in `next`, the row under it.
    package func continues(into next: ScreenRow?) -> Bool {
        wrapped && next.map { !$0.startsLine } == true
    }

    /// Keeps `text` as the row's bytes, until its cells are next edited: they must be what the
    /// cells encode to.
    mutating func keepPlainText(_ text: UnsafeRawBufferPointer) {
        plainText.removeAll(keepingCapacity: true)
        plainText.append(contentsOf: text)
        hasPlainText = true
    }

    /// The cells before `column` may not be blank any more.
    @inline(__always)
    mutating func extend(to column: Int) { if column > extent { extent = column } }

    /// The row's text, trailing spaces dropped (as `tmux capture-pane -p` shows it).
    package var text: String {
        var text = ""
        for cell in cells[..<extent] where cell.width > 0 { text.append(cell.character) }
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
        append(to: &bytes, columns: cells.count)
    }

    /// Appends ``bytes`` to `bytes`, cut after `limit` columns (a wide character that would
    /// cross it left out); returns how many columns they take.
    @discardableResult
    package func append(to bytes: inout [UInt8], columns limit: Int) -> Int {
        if hasPlainText, plainText.count <= limit {
            bytes.append(contentsOf: plainText)
            return plainText.count
        }
        return cells.withUnsafeBufferPointer { cells in
            var end = min(extent, cells.count)
            while end > 0, cells[end - 1].isBlank { end -= 1 }
            var style = CellStyle()
            var inDefaultStyle = true
            var column = 0
            var index = 0
            while index < end {
                let cell = cells[index]
                index += 1
                guard cell.width > 0 else { continue }
                guard column + Int(cell.width) <= limit else { break }
                column += Int(cell.width)
                // Plain ASCII in the style before it, nearly every cell of a log: one byte.
                if cell.cluster == 0, cell.scalar.value < 0x80,
                    inDefaultStyle ? cell.style.isDefault : cell.style == style
                {
                    bytes.append(UInt8(truncatingIfNeeded: cell.scalar.value))
                    continue
                }
                if cell.style != style {
                    bytes += style.transition(to: cell.style)
                    style = cell.style
                    inDefaultStyle = style.isDefault
                }
                cell.appendCharacter(to: &bytes)
            }
            if !style.isDefault { bytes += style.transition(to: CellStyle()) }
            return column
        }
    }

    /// The row cut or padded with blanks to `columns`; a wide character cut in half is blanked.
    mutating func resize(to columns: Int) {
        extent = min(extent, columns)
        if columns < cells.count {
            cells.removeLast(cells.count - columns)
            if let last = cells.last, last.width == 2 { cells[columns - 1] = .blank(last.style.erased) }
            wrapped = false
        } else if columns > cells.count {
            cells += Array(repeating: .blank(), count: columns - cells.count)
            wrapped = false
        }
    }

    package static func == (left: ScreenRow, right: ScreenRow) -> Bool {
        left.wrapped == right.wrapped && left.cells == right.cells
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(wrapped)
        hasher.combine(cells)
    }
}
