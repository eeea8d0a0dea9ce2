import ActivityTerminal

/// What the TTY display leaves on the screen while `activity run`'s command is stopped (Ctrl-Z),
/// and which of the command's final rows are on the screen already after `fg`.
///
/// Bare, a stopped program's rows stay where it drew them, the shell's "Stopped" line under
/// them. So at the stop the display draws the command's rows as they stand, bare, with the
/// cursor where the command's is, in place of the live region: from then on they are in the
/// terminal's scrollback. After `fg` a row the command goes on changing (a bar) becomes final
/// with what it shows then and is printed, as bare shows it again where the command redraws
/// it. A row that becomes final as it was drawn at the stop (a line finished a moment before
/// it, a bar already full) is not printed a second time.
///
/// ```swift
/// var stopped = StoppedCommandRows()
/// let bytes = stopped.draw(rows, cursor: cursor, columns: 100)  // at the stop
/// let rest = stopped.notDrawn(finalBytes)                       // later: what to print
/// ```
struct StoppedCommandRows {
    /// The rows drawn at the stop that have not become final since, top first, each as a final
    /// row's bytes are (``ScreenRow/bytes``, without the `\r\n`).
    private(set) var drawn: [[UInt8]] = []

    /// The bytes that draw `rows` from the start of the cursor's line, each row cut to `columns`,
    /// and leave the cursor at `cursor` when it is on the last of them or on the line under it,
    /// as the command's terminal shows them. Remembers them for ``notDrawn(_:)``.
    ///
    /// A cursor above the last row (tqdm's outer bar over its inner one) is left at the end of
    /// the last row instead: the shell's "Stopped" line, which starts with a line feed, would
    /// otherwise be written over the rows under the cursor (bare, only the `^Z` the terminal
    /// echoes, wrapping at the margin, can save them).
    mutating func draw(_ rows: [ScreenRow], cursor: CommandOutput.LiveCursor, columns: Int) -> [UInt8] {
        drawn = rows.map(\.bytes)
        var bytes: [UInt8] = []
        for (index, row) in rows.enumerated() {
            if index > 0 { bytes += TerminalRenderer.newline }
            row.append(to: &bytes, columns: columns)
        }
        guard cursor.row >= rows.count - 1 else { return bytes }
        // The cursor's row is below the rows only when it is blank (``CommandScreen/usedRowCount``).
        if cursor.row >= rows.count, !rows.isEmpty { bytes += TerminalRenderer.newline }
        bytes.append(0x0D)
        if cursor.column > 0 { bytes += Array("\u{1B}[\(cursor.column)C".utf8) }
        return bytes
    }

    /// Of `final` (final rows' bytes, each ending in `\r\n`, the first the row that became final
    /// next), what is not on the screen yet: the first rows, while each is the next row drawn at
    /// the stop, unchanged, are left out. The first row that changed ends the comparison.
    mutating func notDrawn(_ final: [UInt8]) -> ArraySlice<UInt8> {
        var start = final.startIndex
        while let expected = drawn.first, start < final.endIndex {
            let end = start + expected.count
            guard end + 1 < final.endIndex, final[end] == 0x0D, final[end + 1] == 0x0A,
                final[start..<end].elementsEqual(expected)
            else {
                drawn.removeAll()
                break
            }
            drawn.removeFirst()
            start = end + 2
        }
        return final[start...]
    }
}
