/// What the controls, escape sequences, control sequences and operating system commands a
/// command writes do to its screen.
extension CommandScreen {
    mutating func perform(_ action: VTParser.Action) {
        switch action {
        case .print: printCharacter(parser.character)
        case .execute(let byte): execute(byte)
        case .controlSequence: controlSequence(parser.sequence)
        case .escape: escape(parser.sequence)
        case .operatingSystemCommand: operatingSystemCommand(parser.string)
        }
    }

    private mutating func execute(_ byte: UInt8) {
        switch byte {
        case 0x08:
            if cursor.column > 0 {
                cursor.column = min(cursor.column, columns) - 1
            } else if cursor.row > 0, buffer.rows[cursor.row - 1].wrapped {
                // Back over a wrap, into the last column of the row above, as tmux does.
                cursor = (cursor.row - 1, columns - 1)
            }
        case 0x09: tab(forward: 1)
        case 0x0A, 0x0B, 0x0C:
            lineFeed()
            statusRow = nil
            returnedRow = nil
        case 0x0D:
            if !buffer.rows[cursor.row].isBlank { returnedRow = cursor.row }
            cursor.column = 0
        case 0x0E: charsets.shifted = true
        case 0x0F: charsets.shifted = false
        default: break  // BEL and the rest show nothing
        }
    }

    private mutating func tab(forward count: Int) {
        for _ in 0..<count {
            guard cursor.column < columns - 1 else { return }
            var column = cursor.column + 1
            while column < columns - 1, !tabStops[column] { column += 1 }
            cursor.column = column
        }
    }

    private mutating func tab(backward count: Int) {
        for _ in 0..<count {
            var column = min(cursor.column, columns - 1)
            guard column > 0 else { return }
            column -= 1
            while column > 0, !tabStops[column] { column -= 1 }
            cursor.column = column
        }
    }

    // MARK: - Control sequences

    private mutating func controlSequence(_ sequence: VTParser.Sequence) {
        modes.apply(sequence)
        if sequence.marker == UInt8(ascii: "?") {
            if sequence.intermediates.isEmpty { privateMode(sequence) }
            return
        }
        guard sequence.marker == 0 else { return }
        if sequence.intermediates == [UInt8(ascii: "!")], sequence.final == UInt8(ascii: "p") {
            softReset()
            return
        }
        guard sequence.intermediates.isEmpty else { return }
        let count = sequence.count()
        let column = min(cursor.column, columns - 1)
        switch sequence.final {
        case UInt8(ascii: "@"):
            buffer.insertCells(row: cursor.row, at: cursor.column, count: count, style: style.erased)
        case UInt8(ascii: "A"): cursorUp(count)
        case UInt8(ascii: "B"), UInt8(ascii: "e"): cursorDown(count)
        case UInt8(ascii: "C"), UInt8(ascii: "a"): cursor.column = min(columns - 1, column + count)
        case UInt8(ascii: "D"): cursor.column = max(0, column - count)
        case UInt8(ascii: "E"):
            cursorDown(count)
            cursor.column = 0
        case UInt8(ascii: "F"):
            cursorUp(count)
            cursor.column = 0
        case UInt8(ascii: "G"), UInt8(ascii: "`"): cursor.column = min(columns - 1, count - 1)
        case UInt8(ascii: "H"), UInt8(ascii: "f"):
            move(toRow: sequence.count(0) - 1, column: sequence.count(1) - 1)
        case UInt8(ascii: "d"): move(toRow: count - 1, column: cursor.column)
        case UInt8(ascii: "I"): tab(forward: count)
        case UInt8(ascii: "Z"): tab(backward: count)
        case UInt8(ascii: "J"): eraseInDisplay(sequence.parameter(0, default: 0))
        case UInt8(ascii: "K"): eraseInLine(sequence.parameter(0, default: 0))
        case UInt8(ascii: "L"):
            if inScrollRegion {
                buffer.scrollDown(top: cursor.row, bottom: scrollRegion.bottom, count: count, style: style.erased)
            }
        case UInt8(ascii: "M"):
            if inScrollRegion {
                var discarded = FinalRows()
                buffer.scrollUp(
                    top: cursor.row, bottom: scrollRegion.bottom, count: count, style: style.erased,
                    final: &discarded, keep: false)
            }
        case UInt8(ascii: "P"):
            buffer.deleteCells(row: cursor.row, at: cursor.column, count: count, style: style.erased)
        case UInt8(ascii: "X"):
            buffer.erase(row: cursor.row, cursor.column..<cursor.column + min(count, columns), style: style.erased)
        case UInt8(ascii: "S"): scrollUp(count)
        case UInt8(ascii: "T") where sequence.parameters.count <= 1:
            buffer.scrollDown(top: scrollRegion.top, bottom: scrollRegion.bottom, count: count, style: style.erased)
        case UInt8(ascii: "b"):
            if let cell = lastCell {
                for _ in 0..<min(count, columns * rowCount) {
                    var repeated = cell
                    repeated.style = style
                    print(repeated)
                }
            }
        case UInt8(ascii: "g"):
            switch sequence.parameter(0, default: 0) {
            case 0: tabStops[column] = false
            case 3: tabStops = Array(repeating: false, count: columns)
            default: break
            }
        case UInt8(ascii: "h"), UInt8(ascii: "l"):
            if sequence.parameters.contains(4) { insertMode = sequence.final == UInt8(ascii: "h") }
        case UInt8(ascii: "m"): style.apply(sgr: sequence.parameters)
        case UInt8(ascii: "r"): setScrollRegion(sequence)
        case UInt8(ascii: "s") where sequence.parameters.isEmpty: saveCursor()
        case UInt8(ascii: "u") where sequence.parameters.isEmpty: restoreCursor()
        default: break  // queries (DA, DSR), window operations and the rest change no cell
        }
    }

    private var inScrollRegion: Bool { cursor.row >= scrollRegion.top && cursor.row <= scrollRegion.bottom }

    private mutating func cursorUp(_ count: Int) {
        let limit = cursor.row >= scrollRegion.top ? scrollRegion.top : 0
        let row = max(limit, cursor.row - count)
        if count > 0 { noteFrame(upTo: row) }
        cursor = (row, min(cursor.column, columns - 1))
    }

    private mutating func cursorDown(_ count: Int) {
        let limit = cursor.row <= scrollRegion.bottom ? scrollRegion.bottom : rowCount - 1
        cursor = (min(limit, cursor.row + count), min(cursor.column, columns - 1))
    }

    /// Moves to a row and column from the top left of the screen, or of the scroll region in
    /// origin mode.
    private mutating func move(toRow row: Int, column: Int) {
        let row =
            originMode
            ? min(scrollRegion.bottom, scrollRegion.top + max(0, row)) : min(rowCount - 1, max(0, row))
        cursor = (row, min(columns - 1, max(0, column)))
    }

    private mutating func eraseInLine(_ mode: Int) {
        // Erased from its start, a row is about to be drawn anew; erased after text, it was.
        if mode == 2 || cursor.column == 0 { noteFrame(rewriting: returnedRow == cursor.row ? cursor.row : nil) }
        switch mode {
        case 0: buffer.erase(row: cursor.row, cursor.column..<columns, style: style.erased)
        case 1: buffer.erase(row: cursor.row, 0..<min(cursor.column + 1, columns), style: style.erased)
        case 2: buffer.erase(row: cursor.row, 0..<columns, style: style.erased)
        default: break
        }
    }

    private mutating func eraseInDisplay(_ mode: Int) {
        if mode != 0 || cursor.column == 0 { noteFrame() }
        switch mode {
        case 0:
            if cursor == (0, 0) { keepClearedRows() }
            eraseInLine(0)
            buffer.erase(rows: cursor.row + 1..<rowCount, style: style.erased)
        case 1:
            buffer.erase(rows: 0..<cursor.row, style: style.erased)
            eraseInLine(1)
        case 2:
            keepClearedRows()
            buffer.erase(rows: 0..<rowCount, style: style.erased)
        default: break  // 3 clears the terminal's own scrollback: final rows are already out
        }
    }

    /// Before the whole main screen is cleared, its rows down to the last one not blank become
    /// final, as tmux (`scroll-on-clear`) and VTE keep them in their scrollback.
    private mutating func keepClearedRows() {
        guard !isAlternateScreen else { return }
        // The screen starts afresh: what is redrawn now is measured from here.
        rowsAbove += rowCount
        redraw = (cursor.row, 0)
        guard let last = buffer.rows.lastIndex(where: { !$0.isBlank }) else { return }
        for index in 0...last { final.append(buffer.rows[index], next: index < last ? buffer.rows[index + 1] : nil) }
        // Those rows are final: what is drawn there next is on new rows.
        buffer.renumber(0..<last + 1)
    }

    private mutating func setScrollRegion(_ sequence: VTParser.Sequence) {
        let top = sequence.count(0)
        let bottom = min(
            rowCount,
            sequence.parameter(1, default: rowCount) == 0 ? rowCount : sequence.parameter(1, default: rowCount))
        guard top < bottom else { return }
        scrollRegion = (top - 1, bottom - 1)
        move(toRow: 0, column: 0)
    }

    private mutating func privateMode(_ sequence: VTParser.Sequence) {
        let on = sequence.final == UInt8(ascii: "h")
        guard on || sequence.final == UInt8(ascii: "l") else { return }
        for mode in sequence.parameters {
            switch mode {
            case 6:
                originMode = on
                move(toRow: 0, column: 0)
            case 7: autowrap = on
            case 47, 1047: on ? enterAlternateScreen() : leaveAlternateScreen()
            case 1049:
                if on, !isAlternateScreen {
                    saveCursor()
                    enterAlternateScreen()
                } else if !on, isAlternateScreen {
                    leaveAlternateScreen()
                    restoreCursor()
                }
            default: break  // followed by `modes` only: they change no cell
            }
        }
    }

    /// The alternate screen, blank each time it is entered, as in tmux.
    private mutating func enterAlternateScreen() {
        guard !isAlternateScreen else { return }
        mainBuffer = buffer
        mainRedraw = redraw
        buffer = ScreenBuffer(columns: columns, rows: rowCount)
    }

    mutating func leaveAlternateScreen() {
        guard let main = mainBuffer else { return }
        buffer = main
        mainBuffer = nil
        redraw = mainRedraw
    }

    mutating func saveCursor() {
        buffer.saved = SavedCursor(
            row: cursor.row, column: cursor.column, style: style, originMode: originMode, charsets: charsets)
    }

    mutating func restoreCursor() {
        let saved =
            buffer.saved ?? SavedCursor(row: 0, column: 0, style: CellStyle(), originMode: false, charsets: Charsets())
        cursor = (min(saved.row, rowCount - 1), min(saved.column, columns))
        style = saved.style
        originMode = saved.originMode
        charsets = saved.charsets
    }

    /// `DECSTR`: the modes back as a terminal starts, the screen as it is.
    private mutating func softReset() {
        insertMode = false
        originMode = false
        autowrap = true
        style = CellStyle()
        charsets = Charsets()
        scrollRegion = (0, rowCount - 1)
        buffer.saved = nil
    }

    // MARK: - Escape sequences and operating system commands

    private mutating func escape(_ sequence: VTParser.Sequence) {
        modes.applyEscape(sequence)
        switch (sequence.intermediates.first, sequence.final) {
        case (nil, UInt8(ascii: "7")): saveCursor()
        case (nil, UInt8(ascii: "8")): restoreCursor()
        case (nil, UInt8(ascii: "D")): lineFeed()
        case (nil, UInt8(ascii: "E")):
            cursor.column = 0
            lineFeed()
        case (nil, UInt8(ascii: "M")): reverseLineFeed()
        case (nil, UInt8(ascii: "H")): tabStops[min(cursor.column, columns - 1)] = true
        case (nil, UInt8(ascii: "c")): fullReset()
        case (UInt8(ascii: "("), let final): charsets.lineDrawing.g0 = final == UInt8(ascii: "0")
        case (UInt8(ascii: ")"), let final): charsets.lineDrawing.g1 = final == UInt8(ascii: "0")
        case (UInt8(ascii: "#"), UInt8(ascii: "8")):
            for row in 0..<rowCount {
                for column in 0..<columns { buffer.rows[row].cells[column] = ScreenCell("E") }
                buffer.rows[row].extend(to: columns)
            }
        default: break
        }
    }

    /// `RIS`: the terminal as it starts; the main screen's rows in use are kept as final first.
    private mutating func fullReset() {
        leaveAlternateScreen()
        keepClearedRows()
        let (final, rowsAbove, nextNumber) = (final, rowsAbove, buffer.nextNumber)
        self = CommandScreen(columns: columns, rows: rowCount)
        self.final = final
        self.rowsAbove = rowsAbove
        buffer = ScreenBuffer(columns: columns, rows: rowCount, firstNumber: nextNumber)
    }

    private mutating func operatingSystemCommand(_ string: [UInt8]) {
        guard let separator = string.firstIndex(of: UInt8(ascii: ";")) else { return }
        switch string[..<separator] {
        case [UInt8(ascii: "0")], [UInt8(ascii: "2")]: title = Array(string[(separator + 1)...])
        default: break  // icon names, colours, hyperlinks, the clipboard: nothing on the screen
        }
    }
}
