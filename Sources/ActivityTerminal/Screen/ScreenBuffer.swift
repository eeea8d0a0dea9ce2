/// The rows of one of a ``CommandScreen``'s two screens (the main one and the alternate one),
/// and the edits a terminal makes to them: erasing, inserting and deleting cells, scrolling a
/// region. A wide character that an edit cuts in half is blanked whole, as terminals do.
struct ScreenBuffer: Sendable {
    var rows: [ScreenRow]
    private(set) var columns: Int
    /// The cursor that `DECSC` saved on this screen.
    var saved: CommandScreen.SavedCursor?
    /// The ``ScreenRow/number`` the next row to come onto this screen gets.
    private(set) var nextNumber: Int

    /// A blank screen whose rows are numbered from `firstNumber`.
    init(columns: Int, rows: Int, firstNumber: Int = 0) {
        self.columns = columns
        self.rows = (0..<rows).map { ScreenRow(columns: columns, number: firstNumber + $0) }
        nextNumber = firstNumber + rows
    }

    /// A number for a row coming onto the screen.
    mutating func takeNumber() -> Int {
        defer { nextNumber += 1 }
        return nextNumber
    }

    /// Takes `count` numbers for rows coming onto the screen; returns the first.
    mutating func takeNumbers(_ count: Int) -> Int {
        defer { nextNumber += count }
        return nextNumber
    }

    /// Gives the rows `range` new numbers: they are new rows (the ones they were became final).
    mutating func renumber(_ range: Range<Int>) {
        for row in range.clamped(to: 0..<rows.count) { rows[row].number = takeNumber() }
    }

    /// A blank row of the screen's width for the screen, with a new number.
    mutating func newRow(style: CellStyle = CellStyle()) -> ScreenRow {
        ScreenRow(columns: columns, style: style, number: takeNumber())
    }

    /// Blanks the whole of the wide character that covers `column`, if one does.
    mutating func breakWide(row: Int, at column: Int) {
        guard column >= 0, column < columns else { return }
        let cell = rows[row].cells[column]
        if cell.width == 0, column > 0 {
            rows[row].cells[column - 1] = .blank(rows[row].cells[column - 1].style.erased)
            rows[row].cells[column] = .blank(cell.style.erased)
        } else if cell.width == 2, column + 1 < columns {
            rows[row].cells[column + 1] = .blank(cell.style.erased)
            rows[row].cells[column] = .blank(cell.style.erased)
        }
    }

    /// Puts `cell` at `column`, with the right half of a wide character after it.
    @inline(__always)
    mutating func put(_ cell: ScreenCell, row: Int, column: Int) {
        let cells = rows[row].cells
        if cells[column].width != 1 { breakWide(row: row, at: column) }
        if cell.width == 2 {
            if cells[column + 1].width != 1 { breakWide(row: row, at: column + 1) }
            rows[row].cells[column + 1] = ScreenCell(scalar: " ", width: 0, style: cell.style)
        }
        rows[row].cells[column] = cell
        rows[row].extend(to: column + Int(cell.width))
    }

    /// Blanks the cells `range` of `row` in `style`.
    mutating func erase(row: Int, _ range: Range<Int>, style: CellStyle) {
        let range = range.clamped(to: 0..<columns)
        guard !range.isEmpty else { return }
        breakWide(row: row, at: range.lowerBound)
        breakWide(row: row, at: range.upperBound - 1)
        for column in range { rows[row].cells[column] = .blank(style) }
        if range.upperBound == columns { rows[row].wrapped = false }
        if !style.isDefault {
            rows[row].extend(to: range.upperBound)
        } else if range.upperBound >= rows[row].extent {
            rows[row].extent = min(rows[row].extent, range.lowerBound)
        }
    }

    /// Blanks whole rows.
    mutating func erase(rows range: Range<Int>, style: CellStyle) {
        // Erased, a row is still the same row: a display redrawn after clearing the screen keeps it.
        for row in range.clamped(to: 0..<rows.count) {
            rows[row] = ScreenRow(columns: columns, style: style, number: rows[row].number)
        }
    }

    /// Inserts `count` blank cells at `column`, pushing the rest of the row right and off its end.
    mutating func insertCells(row: Int, at column: Int, count: Int, style: CellStyle) {
        guard column < columns else { return }
        let count = min(count, columns - column)
        breakWide(row: row, at: column)
        breakWide(row: row, at: columns - count)
        rows[row].cells.removeLast(count)
        rows[row].cells.insert(contentsOf: repeatElement(.blank(style), count: count), at: column)
        rows[row].extent = min(columns, max(rows[row].extent + count, style.isDefault ? 0 : column + count))
    }

    /// Deletes `count` cells at `column`, pulling the rest of the row left, blanks at its end.
    mutating func deleteCells(row: Int, at column: Int, count: Int, style: CellStyle) {
        guard column < columns else { return }
        let count = min(count, columns - column)
        breakWide(row: row, at: column)
        breakWide(row: row, at: column + count - 1)
        if column + count < columns { breakWide(row: row, at: column + count) }
        rows[row].cells.removeSubrange(column..<column + count)
        rows[row].cells += repeatElement(.blank(style), count: count)
        if !style.isDefault { rows[row].extent = columns }
    }

    /// Scrolls rows `top...bottom` up by `count`: the top rows leave (appended to `final` when
    /// given, first first), blank ones come in at the bottom. A row leaving is blanked in place and
    /// comes back in at the bottom, so a scroll allocates nothing.
    mutating func scrollUp(top: Int, bottom: Int, count: Int, style: CellStyle, final: inout FinalRows, keep: Bool) {
        let count = min(count, bottom - top + 1)
        for _ in 0..<count {
            var row = rows.remove(at: top)
            if keep { final.append(row, next: top < bottom ? rows[top] : nil) }
            row.clear(style)
            row.number = takeNumber()
            rows.insert(row, at: bottom)
        }
    }

    /// Scrolls rows `top...bottom` down by `count`: the bottom rows are lost, blank ones come in at
    /// the top.
    mutating func scrollDown(top: Int, bottom: Int, count: Int, style: CellStyle) {
        let count = min(count, bottom - top + 1)
        rows.removeSubrange(bottom - count + 1...bottom)
        var entering: [ScreenRow] = []
        for _ in 0..<count { entering.append(newRow(style: style)) }
        rows.insert(contentsOf: entering, at: top)
    }

    /// Every row cut or padded to `columns`.
    mutating func resize(columns: Int) {
        self.columns = columns
        for index in rows.indices { rows[index].resize(to: columns) }
    }
}
