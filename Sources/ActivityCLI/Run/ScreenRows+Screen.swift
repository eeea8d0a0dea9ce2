import ActivityAdapters
import ActivityTerminal

/// What the command's screen (``CommandScreen``) hands its adapter.
extension ScreenRows {
    /// Adds the rows that became final, as the screen gave them (``CommandScreen/takeFinalRows()``),
    /// and the frames it overwrote meanwhile (``CommandScreen/takeOverwrittenFrames()``).
    mutating func add(final rows: FinalRows?, overwritten frames: [CommandScreen.OverwrittenFrame] = []) {
        let before = final.count
        overwritten += frames.map { frame in
            OverwrittenFrame(
                afterFinal: before + frame.finalCount,
                rows: frame.lines.map { RedrawnRow(number: $0.number, bytes: $0.bytes) })
        }
        if let rows { Self.append(rows, to: &final) }
    }

    /// The rows `screen` shows the command finished writing and redrawing now, and the line it
    /// is writing (``CommandScreen/finishedRows``, ``CommandScreen/redrawnLines``,
    /// ``CommandScreen/unfinishedLine``).
    mutating func setCurrent(from screen: CommandScreen) {
        finished.removeAll(keepingCapacity: true)
        Self.append(screen.finishedRows, to: &finished)
        redrawn = screen.redrawnLines.map { RedrawnRow(number: $0.number, bytes: $0.bytes) }
        unfinished = screen.unfinishedLine.map { RedrawnRow(number: $0.number, bytes: $0.bytes) }
    }

    /// Appends each of `rows` to `list` in place: a line of output-heavy commands costs one
    /// row made, not a row made and copied.
    private static func append(_ rows: FinalRows, to list: inout [FinalRow]) {
        for index in rows.rows.indices {
            let row = rows.rows[index]
            list.append(
                FinalRow(
                    number: row.number, bytes: rows.bytes(of: index), wraps: row.wrapped,
                    trailingSpaces: row.trailingBlanks))
        }
    }
}
