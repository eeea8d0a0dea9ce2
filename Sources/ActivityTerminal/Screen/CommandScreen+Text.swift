import ActivityWire

/// Writing characters: the fast path for runs of printable ASCII, wide characters, grapheme
/// clusters built across writes, autowrap, line feeds and scrolling.
extension CommandScreen {
    /// Writes a run of printable ASCII: whole cells at once, a row at a time.
    mutating func printASCII(_ bytes: UnsafeRawBufferPointer) {
        if returnedRow != nil { noteRewrite() }
        drewSinceNoted = true
        guard !insertMode, !charsets.isLineDrawing else {
            for byte in bytes { printCharacter(Unicode.Scalar(byte)) }
            return
        }
        let count = bytes.count
        var index = 0
        while index < count {
            if cursor.column >= columns {
                if autowrap { wrap() } else { cursor.column = columns - 1 }
            }
            let start = cursor.column
            let written = min(columns - start, count - index)
            let row = cursor.row
            if buffer.rows[row].cells[start].width != 1 { buffer.breakWide(row: row, at: start) }
            let end = start + written
            if end < columns, buffer.rows[row].cells[end].width == 0 { buffer.breakWide(row: row, at: end) }
            let style = style
            buffer.rows[row].cells.withUnsafeMutableBufferPointer { cells in
                for offset in 0..<written {
                    cells[start + offset] = ScreenCell(
                        scalar: Unicode.Scalar(bytes[index + offset]), width: 1, style: style)
                }
            }
            buffer.rows[row].extend(to: end)
            index += written
            cursor.column = end
            if !autowrap, end == columns { cursor.column = columns - 1 }
        }
        if let last = bytes.last { lastCell = ScreenCell(scalar: Unicode.Scalar(last), width: 1, style: style) }
    }

    /// Text printed after a `\r` from the start of the row it went back to rewrites that row: a
    /// status line. A line editor moving over its prompt first (readline's redraw) does not.
    mutating func noteRewrite() {
        if returnedRow == cursor.row, cursor.column == 0 {
            statusRow = cursor.row
            noteFrame()
            buffer.rows[cursor.row].startsLine = true
        }
        returnedRow = nil
    }

    /// Writes one character, or adds it to the cluster of the one before the cursor.
    mutating func printCharacter(_ input: Unicode.Scalar) {
        if returnedRow != nil { noteRewrite() }
        drewSinceNoted = true
        let scalar = charsets.isLineDrawing ? Self.lineDrawing(input) : input
        let width = DisplayWidth.scalarWidth(scalar)
        if width == 0 || joinsPrevious(scalar) {
            combine(scalar)
            return
        }
        print(ScreenCell(scalar: scalar, width: UInt8(width), style: style))
    }

    /// Writes a cell of width 1 or 2 at the cursor, wrapping first when it does not fit.
    mutating func print(_ cell: ScreenCell) {
        let width = Int(cell.width)
        guard width <= columns else { return }
        if cursor.column + width > columns {
            if autowrap { wrap() } else { cursor.column = columns - width }
        }
        if insertMode { buffer.insertCells(row: cursor.row, at: cursor.column, count: width, style: style.erased) }
        buffer.put(cell, row: cursor.row, column: cursor.column)
        lastCell = cell
        cursor.column += width
        if !autowrap, cursor.column >= columns { cursor.column = columns - 1 }
    }

    /// The column of the character before the cursor (the one a combining mark joins), if any.
    private var previousColumn: Int? {
        var column = min(cursor.column, columns) - 1
        if column > 0, buffer.rows[cursor.row].cells[column].width == 0 { column -= 1 }
        return column >= 0 ? column : nil
    }

    /// Whether `scalar` extends the grapheme cluster before the cursor though it has a width of
    /// its own: an emoji after a zero width joiner, a skin tone, a flag's second letter. Each
    /// leading Hangul jamo keeps its own cell, as ``DisplayWidth`` counts them.
    private func joinsPrevious(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0x80, !DisplayWidth.standsAlone(scalar.value), !DisplayWidth.isLeadingJamo(scalar.value),
            let column = previousColumn
        else { return false }
        let cell = buffer.rows[cursor.row].cells[column]
        guard cell.cluster != 0 || cell.scalar.value >= 0x80 else { return false }
        var text = String(cell.character)
        text.unicodeScalars.append(scalar)
        return text.count == 1
    }

    /// Adds `scalar` to the cluster before the cursor; dropped when there is none, or when it
    /// would not make one cluster with it. A cluster that becomes wide (`U+FE0F` after a narrow
    /// emoji) takes two columns when the next one is on the row.
    private mutating func combine(_ scalar: Unicode.Scalar) {
        guard let column = previousColumn else { return }
        let row = cursor.row
        var cell = buffer.rows[row].cells[column]
        var text = String(cell.character)
        text.unicodeScalars.append(scalar)
        guard text.count == 1, let character = text.first else { return }
        cell.character = character
        let width = DisplayWidth.of(character)
        if cell.width == 1, width == 2, column + 1 < columns {
            cell.width = 2
            buffer.put(cell, row: row, column: column)
            if cursor.column == column + 1 { cursor.column = column + 2 }
        } else {
            buffer.rows[row].cells[column].character = character
        }
        lastCell = cell
    }

    /// Goes to the start of the next row, as autowrap does after the last column.
    mutating func wrap() {
        buffer.rows[cursor.row].wrapped = true
        cursor.column = 0
        lineFeed()
        buffer.rows[cursor.row].startsLine = false
    }

    /// Moves the cursor down a row, scrolling the region up at its bottom; the column stays (a
    /// pending wrap too, as in tmux).
    mutating func lineFeed() {
        if cursor.row == scrollRegion.bottom {
            scrollUp(1)
        } else if cursor.row < rowCount - 1 {
            cursor.row += 1
            if cursor.row > redraw.lowestRow { redraw.lowestRow = cursor.row }
        }
    }

    /// Moves the cursor up a row, scrolling the region down at its top.
    mutating func reverseLineFeed() {
        if cursor.row == scrollRegion.top {
            buffer.scrollDown(top: scrollRegion.top, bottom: scrollRegion.bottom, count: 1, style: style.erased)
        } else if cursor.row > 0 {
            cursor.row -= 1
        }
    }

    /// Scrolls the region up: on the main screen the rows leaving its top are final (tmux keeps
    /// them in its history whatever the region), on the alternate screen they are gone.
    mutating func scrollUp(_ count: Int) {
        if !isAlternateScreen, scrollRegion.top == 0 { rowsAbove += min(count, scrollRegion.bottom + 1) }
        buffer.scrollUp(
            top: scrollRegion.top, bottom: scrollRegion.bottom, count: count, style: style.erased, final: &final,
            keep: !isAlternateScreen)
    }

    /// What a character of the DEC line-drawing set (`ESC ( 0`) shows.
    static func lineDrawing(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        guard scalar.value >= 0x5F, scalar.value <= 0x7E else { return scalar }
        let drawn = Array(" ◆▒␉␌␍␊°±␤␋┘┐┌└┼⎺⎻─⎼⎽├┤┴┬│≤≥π≠£·".unicodeScalars)
        return drawn[Int(scalar.value - 0x5F)]
    }
}
