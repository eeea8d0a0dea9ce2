/// The rows a command redraws in place, as text for what reads them (adapters under `activity
/// run`): the bars of a display, its status row.
extension CommandScreen {
    /// The rows of the main screen the command is redrawing, top first, each as one line: a row
    /// its text wrapped from is joined with the rows it wrapped into, under the first one's
    /// ``ScreenRow/number``. They are the row a `\r` rewrites (``statusRow``), the rows the
    /// command goes back up over (``redraw``: a display of several rows redrawn from its top),
    /// and under a scroll region the rows outside it (a status row kept at the bottom, as apt's
    /// `Progress: [ 40%]`). Rows of plain output are not among them: they are read once
    /// (``finishedRows``).
    /// Each line's bytes are the row's as ``ScreenRow/bytes`` gives them (text and its styles).
    package var redrawnLines: [(number: Int, bytes: [UInt8])] {
        guard !isAlternateScreen else { return [] }
        return lines(at: redrawnIndices)
    }

    /// The rows at `indices` (top first), each with the rows its text wrapped into, as one line.
    private func lines(at indices: [Int]) -> [(number: Int, bytes: [UInt8])] {
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
                // The blanks at the end of a row that wraps are part of its line.
                bytes += repeatElement(UInt8(ascii: " "), count: buffer.rows[row].trailingBlankCount)
                row += 1
            }
            covered = row
            lines.append((buffer.rows[start].number, bytes))
        }
        return lines
    }

    /// The line the cursor is on, with the rows it wrapped from, when the command is still
    /// writing it and does not redraw it: a line not ended yet (tar's `--checkpoint-action=dot`
    /// dots, a prompt), read as it grows as a stream's unfinished line is. `nil` when the
    /// cursor's row is blank or redrawn (a `\r` status row is among ``redrawnLines``).
    package var unfinishedLine: (number: Int, bytes: [UInt8])? {
        guard !isAlternateScreen, cursor.row < rowCount, !buffer.rows[cursor.row].isBlank,
            !redrawnIndices.contains(cursor.row)
        else { return nil }
        // A line longer than what is read as it grows (1 KiB) is not built at all.
        var start = cursor.row
        while start > 0, buffer.rows[start - 1].continues(into: buffer.rows[start]) { start -= 1 }
        guard (cursor.row - start) * columns + buffer.rows[cursor.row].extent <= Self.maxUnfinishedCells else {
            return nil
        }
        return lines(at: [cursor.row]).first
    }

    /// The most cells of an ``unfinishedLine``.
    static let maxUnfinishedCells = 1024

    /// The rows above the cursor that the command has finished writing and does not redraw:
    /// lines of plain output still on the screen, each to be read at once rather than when it
    /// becomes final, given as ``takeFinalRows()`` gives final ones. A line that wrapped into
    /// the cursor's row is not finished.
    package var finishedRows: FinalRows {
        var finished = FinalRows()
        guard !isAlternateScreen else { return finished }
        let redrawn = redrawnIndices
        var start = 0
        while start < cursor.row {
            var end = start
            while end < cursor.row, buffer.rows[end].continues(into: buffer.rows[end + 1]) { end += 1 }
            if end < cursor.row, !(start...end).contains(where: redrawn.contains) {
                for row in start...end {
                    finished.append(buffer.rows[row], next: row < end ? buffer.rows[row + 1] : nil)
                }
            }
            start = end + 1
        }
        return finished
    }

    /// The rows the command redraws as they stood before a redraw overwrote them
    /// (``redrawnLines`` then), and how many final rows came before them.
    package struct OverwrittenFrame: Sendable {
        package var finalCount: Int
        package var lines: [(number: Int, bytes: [UInt8])]
    }

    /// At most this many frames are kept between two ``takeOverwrittenFrames()``: the latest.
    static let maxOverwrittenFrames = 64

    /// The frames the command overwrote since the last call, oldest first (with
    /// ``notesOverwrites``): every state its redrawn rows had, though one read brought several
    /// frames, so that what reads them sees a bar that reached its end and was replaced by the
    /// next one within a read. The frame still on the screen is ``redrawnLines``. Taken with
    /// ``takeFinalRows()``, just before it: each frame's ``OverwrittenFrame/finalCount`` counts
    /// the final rows that one gives.
    package mutating func takeOverwrittenFrames() -> [OverwrittenFrame] {
        defer {
            overwritten.removeAll(keepingCapacity: true)
            notedFrameIsOpen = false
        }
        return overwritten
    }

    /// Notes the redrawn rows as they stand, the command being about to overwrite them: a
    /// cursor-up, an erase, or a `\r` rewrite, the first one since something was drawn. Plain
    /// output (no such control) never gets here.
    /// `rewritten` is a row about to be written anew though it is not redrawn (yet): a line
    /// erased after `\r` (cargo's `Building` line, replaced by an error). `top` is the row a
    /// cursor-up goes to: the rows from there down are about to be redrawn, though the screen
    /// learns it only by this move (a display's first frame, whose first redraw goes up over it).
    mutating func noteFrame(rewriting rewritten: Int? = nil, upTo top: Int? = nil) {
        guard notesOverwrites, !isAlternateScreen else { return }
        guard drewSinceNoted else {
            if let top { extendNotedFrame(upTo: top) }
            return
        }
        drewSinceNoted = false
        notedFrameIsOpen = false
        var indices = redrawnIndices
        if let rewritten, !indices.contains(rewritten) { indices.append(rewritten) }
        if let top, top < cursor.row { indices += (top...cursor.row).filter { !indices.contains($0) } }
        indices.sort()
        let lines = lines(at: indices)
        guard !lines.isEmpty else { return }
        if let last = overwritten.last, last.lines.elementsEqual(lines, by: { $0 == $1 }) { return }
        if overwritten.count >= Self.maxOverwrittenFrames { overwritten.removeFirst() }
        overwritten.append(OverwrittenFrame(finalCount: final.count, lines: lines))
        notedFrameIsOpen = true
    }

    /// A redraw noted its frame at its first erase (rich's `\r ESC [2K`, before it goes up), and
    /// now goes up over rows nothing has drawn on since: those rows are part of the frame it
    /// overwrites, which the screen did not know to be redrawn when it noted it (its first one).
    private mutating func extendNotedFrame(upTo top: Int) {
        guard notedFrameIsOpen, let first = overwritten.last?.lines.first,
            let firstIndex = buffer.rows.firstIndex(where: { $0.number == first.number }), top < firstIndex,
            !buffer.rows[firstIndex - 1].continues(into: buffer.rows[firstIndex])
        else { return }
        overwritten[overwritten.count - 1].lines.insert(contentsOf: lines(at: Array(top..<firstIndex)), at: 0)
    }

    /// The indices of the rows ``redrawnLines`` reads, top first.
    private var redrawnIndices: [Int] {
        var indices: [Int] = []
        if scrollRegion.top != 0 || scrollRegion.bottom != rowCount - 1 {
            indices += 0..<scrollRegion.top
            indices += (scrollRegion.bottom + 1)..<rowCount
        } else if redraw.depth > 0 {
            let lowest = min(redraw.lowestRow, rowCount - 1)
            indices += max(0, lowest - redraw.depth)...lowest
        }
        if let statusRow, !indices.contains(statusRow) { indices.append(statusRow) }
        return indices.sorted()
    }
}
