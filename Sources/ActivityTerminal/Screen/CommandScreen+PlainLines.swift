/// Plain lines at full speed: a command that prints line after line of plain text (a build log,
/// `seq`, `cat` of a file) scrolls every row it writes off the screen again soon after. When at
/// least a screenful of such lines comes in one read, the ones that would scroll off within the
/// read become final rows straight from their bytes, and only the last screenful is written into
/// cells. The outcome is the one writing them cell by cell gives, to the row numbers
/// (`PlainLinesTests` feeds both ways and compares).
extension CommandScreen {
    /// Takes the plain lines that start at `start`, when there are at least a screenful of them
    /// and the screen is in the state they need; returns where the bytes not taken start
    /// (`start` when none were taken).
    ///
    /// A plain line here is printable ASCII shorter than the screen is wide, then `\r\n`, as a
    /// pseudo-terminal turns a line of plain text into. The screen must be the main one with
    /// its whole height scrolling, no insert mode, line-drawing set or style in use, and the
    /// cursor at the start of a blank bottom row: where each line is written and then scrolls
    /// up, the top row leaving.
    ///
    /// `scanned` is where the lines looked at end: a caller that got `start` back need not look
    /// again before it.
    mutating func takePlainLines(_ bytes: UnsafeRawBufferPointer, from start: Int, scanned: inout Int) -> Int {
        scanned = start
        guard usesPlainLines, acceptsPlainLines else { return start }
        // Taken, not copied: the storage is reused only while one array holds it.
        var ends: [Int] = []
        swap(&ends, &plainLineEnds)
        ends.removeAll(keepingCapacity: true)
        var index = start
        let count = bytes.count
        let width = columns
        while true {
            // A line as wide as the screen or wider is not plain: no need to look past that.
            let end = Self.printableASCIIEnd(bytes, from: index, limit: min(count, index + width))
            guard end - index < width, end + 1 < count, bytes[end] == 0x0D, bytes[end + 1] == 0x0A else { break }
            ends.append(end)
            index = end + 2
        }
        plainLineEnds = ends
        scanned = index
        guard ends.count >= rowCount else { return start }
        writePlainLines(bytes, from: start, ends: ends)
        return ends[ends.count - 1] + 2
    }

    /// Whether the screen is where plain lines scroll through it (see ``takePlainLines(_:from:)``).
    private var acceptsPlainLines: Bool {
        let bottom = rowCount - 1
        return !isAlternateScreen && scrollRegion.top == 0 && scrollRegion.bottom == bottom && !insertMode
            && !charsets.isLineDrawing && style.isDefault && cursor.row == bottom && cursor.column == 0
            && returnedRow == nil && !parser.isInsideSequence && buffer.rows[bottom].extent == 0
            && (bottom == 0 || !buffer.rows[bottom - 1].wrapped)
    }

    /// The lines ending at `ends` (each before its `\r\n`), at least ``rowCount`` of them: the
    /// rows above the cursor leave, then the lines that would scroll off do, from their bytes;
    /// the last `rowCount - 1` lines are the rows above the blank bottom row.
    private mutating func writePlainLines(_ bytes: UnsafeRawBufferPointer, from start: Int, ends: [Int]) {
        let bottom = rowCount - 1
        let lines = ends.count
        // The rows above the cursor scroll off first, each before the row under it.
        for row in 0..<bottom { final.append(buffer.rows[row], next: buffer.rows[row + 1]) }
        // Line 0 is written in the bottom row as it stands; each later one in the row that came
        // in at the bottom as the screen scrolled, numbered in turn.
        let firstNumber = buffer.rows[bottom].number
        let nextNumber = buffer.takeNumbers(lines)
        func number(ofLine line: Int) -> Int { line == 0 ? firstNumber : nextNumber + line - 1 }
        func text(ofLine line: Int) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: bytes[(line == 0 ? start : ends[line - 1] + 2)..<ends[line]])
        }
        let passing = lines - bottom
        for line in 0..<passing { final.appendPlain(text(ofLine: line), number: number(ofLine: line)) }
        for row in 0..<bottom {
            let line = passing + row
            buffer.rows[row].clear(CellStyle())
            buffer.rows[row].number = number(ofLine: line)
            buffer.rows[row].writeASCII(text(ofLine: line))
        }
        buffer.rows[bottom].number = nextNumber + lines - 1
        // `REP` repeats the last character printed: the last one of the last line not empty.
        if let line = (0..<lines).last(where: { !text(ofLine: $0).isEmpty }), let last = text(ofLine: line).last {
            lastCell = ScreenCell(scalar: Unicode.Scalar(last), width: 1, style: CellStyle())
            drewSinceNoted = true
        }
        rowsAbove += lines
        statusRow = nil
        redraw.lowestRow = max(redraw.lowestRow, bottom)
    }
}

extension CommandScreen {
    /// Where the run of printable ASCII (0x20 to 0x7E) starting at `start` ends, at `limit` at
    /// most: eight bytes at a time while all eight are printable, the rest one by one. The text
    /// of a log is nearly all such runs, and every byte of it is looked at here.
    @inline(__always)
    static func printableASCIIEnd(_ bytes: UnsafeRawBufferPointer, from start: Int, limit: Int) -> Int {
        var end = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while end + 8 <= limit {
            let word = bytes.loadUnaligned(fromByteOffset: end, as: UInt64.self)
            // A byte under 0x20 borrows into its high bit once 0x20 is taken from it; a byte of
            // 0x7F or more has its high bit set once 1 is added to it (or already had it).
            let below = (word &- ones &* 0x20) & ~word & highs
            let above = ((word &+ ones) | word) & highs
            guard below | above == 0 else { break }
            end += 8
        }
        while end < limit, bytes[end] >= 0x20, bytes[end] < 0x7F { end += 1 }
        return end
    }
}

extension ScreenRow {
    /// Writes printable ASCII from the first column of a blank row of the default style, and
    /// keeps it as the row's bytes, trailing spaces left out as ``append(to:columns:)`` leaves
    /// out trailing blanks.
    mutating func writeASCII(_ text: UnsafeRawBufferPointer) {
        cells.withUnsafeMutableBufferPointer { cells in
            for (column, byte) in text.enumerated() {
                cells[column] = ScreenCell(scalar: Unicode.Scalar(byte), width: 1, style: CellStyle())
            }
        }
        extend(to: text.count)
        var end = text.count
        while end > 0, text[end - 1] == 0x20 { end -= 1 }
        keepPlainText(UnsafeRawBufferPointer(rebasing: text[..<end]))
    }
}
