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
        if let rows { final += Self.rows(rows) }
    }

    /// The rows `screen` shows the command finished writing and redrawing now
    /// (``CommandScreen/finishedRows``, ``CommandScreen/redrawnLines``).
    mutating func setCurrent(from screen: CommandScreen) {
        finished = Self.rows(screen.finishedRows)
        redrawn = screen.redrawnLines.map { RedrawnRow(number: $0.number, bytes: $0.bytes) }
    }

    private static func rows(_ rows: FinalRows) -> [FinalRow] {
        rows.rows.indices.map { index in
            let row = rows.rows[index]
            return FinalRow(
                number: row.number, bytes: rows.bytes(of: index), wraps: row.wrapped, trailingSpaces: row.trailingBlanks
            )
        }
    }
}
