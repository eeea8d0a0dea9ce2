import ActivityAdapters
import ActivityTerminal

/// What the command's screen (``CommandScreen``) hands its adapter.
extension ScreenRows {
    /// Adds the rows that became final, as the screen gave them (``CommandScreen/takeFinalRows()``).
    mutating func add(final rows: FinalRows) {
        for index in rows.rows.indices {
            let row = rows.rows[index]
            final.append(FinalRow(number: row.number, bytes: rows.bytes(of: index), wraps: row.wrapped))
        }
    }

    /// The rows `screen` shows the command redrawing now (``CommandScreen/redrawnLines``).
    mutating func setRedrawn(from screen: CommandScreen) {
        redrawn = screen.redrawnLines.map { RedrawnRow(number: $0.number, bytes: $0.bytes) }
    }
}
