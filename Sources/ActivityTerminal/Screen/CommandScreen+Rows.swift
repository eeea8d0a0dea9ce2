/// The rows a command redraws in place, as text for what reads them (adapters under `activity
/// run`): the bars of a display, its status row.
extension CommandScreen {
    /// The rows of the main screen the command is redrawing, top first, each as one line: a row
    /// its text wrapped from is joined with the rows it wrapped into, under the first one's
    /// ``ScreenRow/number``. They are the row a `\r` rewrites (``statusRow``), the rows the
    /// command goes back up over (``redraw``: a display of several rows redrawn from its top),
    /// and under a scroll region the rows outside it (a status row kept at the bottom, as apt's
    /// `Progress: [ 40%]`). Rows of plain output are not among them: they are read once final.
    /// Each line's bytes are the row's as ``ScreenRow/bytes`` gives them (text and its styles).
    package var redrawnLines: [(number: Int, bytes: [UInt8])] {
        guard !isAlternateScreen else { return [] }
        var indices: [Int] = []
        if scrollRegion.top != 0 || scrollRegion.bottom != rowCount - 1 {
            indices += 0..<scrollRegion.top
            indices += (scrollRegion.bottom + 1)..<rowCount
        } else if redraw.depth > 0 {
            let lowest = min(redraw.lowestRow, rowCount - 1)
            indices += max(0, lowest - redraw.depth)...lowest
        }
        if let statusRow, !indices.contains(statusRow) { indices.append(statusRow) }
        indices.sort()
        var lines: [(number: Int, bytes: [UInt8])] = []
        var covered = -1
        for index in indices where index > covered && index < rowCount {
            var start = index
            while start > covered + 1, buffer.rows[start - 1].continues(into: buffer.rows[start]) { start -= 1 }
            var bytes: [UInt8] = []
            var row = start
            while true {
                buffer.rows[row].append(to: &bytes)
                guard row + 1 < rowCount, buffer.rows[row].continues(into: buffer.rows[row + 1]) else { break }
                row += 1
            }
            covered = row
            lines.append((buffer.rows[start].number, bytes))
        }
        return lines
    }
}
