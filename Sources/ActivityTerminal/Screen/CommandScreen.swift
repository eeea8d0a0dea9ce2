/// The screen of a command's pseudo-terminal: what a VT/xterm terminal of the same size would
/// show after the bytes the command wrote, cell by cell (character, width, style), with its
/// cursor, scroll region, modes and alternate screen; and which of its rows are final.
///
/// A row is final once it leaves the main screen by scrolling up (a line feed at the bottom of
/// the scroll region, `SU`, a full-screen erase, the screen getting shorter): it can no longer
/// change, so it is reported once, as the bytes that draw it (``takeFinalBytes()``). The rows
/// still on the screen are live: the command may still redraw them (a `\r` status line, a
/// cursor-up display, a status row under a scroll region, a prompt being typed). When the
/// command ends, ``finish()`` makes final the rows down to the last one in use. Nothing on the
/// alternate screen is ever final: a full-screen program's screen is gone when it leaves it.
///
/// Widths come from ``DisplayWidth``, the table the renderer measures with; pending wrap and
/// the cursor's behaviour at the right margin follow tmux, the reference the tests compare with.
///
/// ```swift
/// var screen = CommandScreen(columns: 80, rows: 24)
/// screen.feed(Array("one\r\ntwo\r\n50%\r".utf8))
/// screen.finish()
/// screen.takeFinalBytes()  // "one\r\ntwo\r\n50%\r\n"
/// ```
package struct CommandScreen: Sendable {
    /// What `DECSC` (`ESC 7`, `CSI s`) saves.
    struct SavedCursor: Sendable {
        var row: Int
        var column: Int
        var style: CellStyle
        var originMode: Bool
        var charsets: Charsets
    }

    /// The character sets designated as G0 and G1 (`ESC ( 0`, `ESC ) 0`), and which one is in use
    /// (SI, SO): only the DEC line-drawing set differs from ASCII here.
    struct Charsets: Sendable, Equatable {
        var lineDrawing = (g0: false, g1: false)
        var shifted = false
        var isLineDrawing: Bool { shifted ? lineDrawing.g1 : lineDrawing.g0 }
        static func == (left: Charsets, right: Charsets) -> Bool {
            left.lineDrawing == right.lineDrawing && left.shifted == right.shifted
        }
    }

    package private(set) var columns: Int
    package private(set) var rowCount: Int
    /// The screen in use, and the other one while the alternate screen is in use.
    var buffer: ScreenBuffer
    var mainBuffer: ScreenBuffer?
    /// The cursor; `column` is `columns` while a wrap is pending (the last column was written,
    /// the next character goes to the next row), as tmux keeps it.
    package internal(set) var cursor: (row: Int, column: Int) = (0, 0)
    /// The style of the characters written next (SGR).
    package internal(set) var style = CellStyle()
    /// The scroll region, rows `top...bottom` (from 0).
    package internal(set) var scrollRegion: (top: Int, bottom: Int)
    var originMode = false
    var autowrap = true
    var insertMode = false
    var charsets = Charsets()
    var tabStops: [Bool]
    /// The last character written, for `REP`.
    var lastCell: ScreenCell?
    /// The modes the command turned on, away from how a terminal starts.
    package internal(set) var modes = TerminalModes()
    /// The window title the command last set (`OSC 0`, `OSC 2`); nil when it set none.
    package internal(set) var title: [UInt8]?
    var parser = VTParser()
    /// The final rows not yet taken.
    var final = FinalRows()
    /// The row whose text a `\r` went back to the start of, until something is printed.
    var returnedRow: Int?
    /// The row rewritten in place from its start after a `\r` (a progress line such as curl's,
    /// pip's or `printf '\r%d%%'`), until a line feed: the command's status, not a prompt.
    package internal(set) var statusRow: Int?
    /// The lowest row the cursor has been on, and the most rows it has gone back up from there
    /// (cursor up, a cursor position, reverse index, a restored cursor): how many rows above the
    /// lowest the command redraws. 0 for plain output; 1 for a bar under a bar; N for a display
    /// of N rows redrawn from its top. See ``settleableRowCount``.
    package internal(set) var redraw = (lowestRow: 0, depth: 0)
    /// How many rows have left the top of the main screen since the start: a row's number from
    /// the start of the output is this plus its index.
    package internal(set) var rowsAbove = 0
    /// ``redraw`` of the main screen while the alternate one is in use.
    var mainRedraw = (lowestRow: 0, depth: 0)
    /// Whether runs of plain lines are taken whole (``takePlainLines(_:from:scanned:)``); off,
    /// every byte is written cell by cell, for the tests that compare the two.
    package var usesPlainLines = true
    /// Where the lines of a run of plain lines end: storage kept from read to read.
    var plainLineEnds: [Int] = []
    /// Whether the rows the command redraws are noted before they are overwritten
    /// (``takeOverwrittenFrames()``): only when something reads them.
    package var notesOverwrites = false
    /// The frames noted since the last ``takeOverwrittenFrames()``, oldest first.
    var overwritten: [OverwrittenFrame] = []
    /// Whether anything was drawn since the last frame was noted: a redraw's first cursor-up,
    /// erase or `\r` rewrite notes the frame, the ones after it in the same redraw do not.
    var drewSinceNoted = false
    /// Whether the last note made the last of ``overwritten`` and nothing was drawn since: a
    /// cursor-up then extends that frame (``noteFrame(rewriting:upTo:)``).
    var notedFrameIsOpen = false

    /// A blank screen of `columns` × `rows` (each at least 1), the cursor at its top left.
    package init(columns: Int, rows: Int) {
        self.columns = max(1, columns)
        rowCount = max(1, rows)
        buffer = ScreenBuffer(columns: self.columns, rows: rowCount)
        scrollRegion = (0, rowCount - 1)
        tabStops = Self.defaultTabStops(self.columns)
    }

    static func defaultTabStops(_ columns: Int) -> [Bool] { (0..<columns).map { $0 % 8 == 0 && $0 > 0 } }

    /// Whether the command is on the alternate screen.
    package var isAlternateScreen: Bool { mainBuffer != nil }

    /// The rows on the screen in use, top first.
    package var rows: [ScreenRow] { buffer.rows }

    /// How many rows from the top are in use: down to the last one not blank, and the rows above
    /// the cursor (blank lines the command wrote); the cursor's own row only when not blank.
    /// These are the command's live rows.
    package var usedRowCount: Int {
        let last = buffer.rows.lastIndex { !$0.isBlank } ?? -1
        return max(last + 1, cursor.row)
    }

    /// Reads what the command wrote. A sequence or a character cut at the end is kept for the
    /// next call.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        var index = 0
        // Runs of plain lines are looked for at the start of a row, once per stretch of bytes.
        var plainLinesScanned = 0
        while index < count {
            if cursor.column == 0, index >= plainLinesScanned {
                let next = takePlainLines(bytes, from: index, scanned: &plainLinesScanned)
                if next != index {
                    index = next
                    continue
                }
            }
            let byte = bytes[index]
            if byte >= 0x20, byte < 0x7F, !parser.isInsideSequence {
                // The fast path: a run of printable ASCII is written cell by cell, unparsed.
                let end = Self.printableASCIIEnd(bytes, from: index + 1, limit: count)
                printASCII(UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
                index = end
                continue
            }
            var action = parser.take(byte)
            while let taken = action {
                perform(taken)
                followCursor()
                action = parser.takePending()
            }
            index += 1
        }
    }

    /// Reads what the command wrote.
    package mutating func feed(_ bytes: some Sequence<UInt8>) {
        let fed: Void? = bytes.withContiguousStorageIfAvailable { feed(UnsafeRawBufferPointer($0)) }
        if fed == nil { Array(bytes).withUnsafeBytes { feed($0) } }
    }

    /// The final rows since the last call, as the bytes that draw them, each ending in `\r\n`;
    /// empty when there are none.
    package mutating func takeFinalBytes() -> [UInt8] {
        defer { final.removeAll() }
        return final.bytes
    }

    /// The final rows since the last call: their bytes, as ``takeFinalBytes()`` gives them, and
    /// each row's number and end in them, for what reads the rows' text (adapters).
    package mutating func takeFinalRows() -> FinalRows {
        defer { final.removeAll() }
        return final
    }

    /// How many final rows ``takeFinalBytes()`` would give.
    package var pendingFinalRows: Int { final.count }

    /// The command ended: the main screen's rows in use become final, the screen is blank again
    /// with the cursor at its top left. A command that ends on the alternate screen leaves it
    /// first (its rows are gone, as the terminal shows the main screen again once its modes are
    /// reset), so what it wrote on the main screen before is kept.
    package mutating func finish() {
        if isAlternateScreen {
            leaveAlternateScreen()
            if modes.changed.contains(1049) { restoreCursor() }
        }
        let used = usedRowCount
        if used > 0 {
            for index in 0..<used { final.append(buffer.rows[index], next: buffer.rows[index + 1..<used].first) }
        }
        buffer.erase(rows: 0..<rowCount, style: CellStyle())
        buffer.renumber(0..<rowCount)
        rowsAbove += rowCount
        cursor = (0, 0)
        redraw = (0, 0)
    }

    /// How many rows from the top may be made final now, though they are still on the screen
    /// (``settle(rows:)``): those more than ``redraw``'s depth above the lowest row the cursor has
    /// been on. The command has never gone back up that far, so it is not redrawing them: with
    /// plain output every finished line, with a bar redrawn under a bar all but the last two
    /// rows. None on the alternate screen or under a scroll region: there the region's rows
    /// scroll off by themselves, and a status row outside it is redrawn from anywhere.
    package var settleableRowCount: Int {
        guard !isAlternateScreen, scrollRegion.top == 0, scrollRegion.bottom == rowCount - 1 else { return 0 }
        return max(0, min(redraw.lowestRow - redraw.depth, cursor.row))
    }

    /// Makes the top `count` rows final (at most ``settleableRowCount``), as if they had scrolled
    /// off: the rows below move up, the cursor with them, blank rows come in at the bottom.
    package mutating func settle(rows count: Int) {
        let count = min(count, settleableRowCount)
        guard count > 0 else { return }
        buffer.scrollUp(top: 0, bottom: rowCount - 1, count: count, style: CellStyle(), final: &final, keep: true)
        rowsAbove += count
        cursor.row -= count
        redraw.lowestRow -= count
        if let saved = buffer.saved { buffer.saved?.row = max(0, saved.row - count) }
        statusRow = statusRow.map { $0 - count }
        returnedRow = returnedRow.map { $0 - count }
    }

    /// Follows a move of the cursor for ``redraw``: down sets a new lowest row, up deepens the
    /// redraw. Only inside a scroll region of the whole screen, where eager finality applies.
    @inline(__always)
    mutating func followCursor() {
        let row = cursor.row
        guard !isAlternateScreen else { return }
        if row >= redraw.lowestRow {
            redraw.lowestRow = row
        } else if redraw.lowestRow - row > redraw.depth {
            redraw.depth = redraw.lowestRow - row
        }
    }

    /// The bytes that turn off the modes the command left on (``TerminalModes/resetSequence``),
    /// and clear the title it set.
    package var resetSequence: [UInt8] {
        modes.resetSequence + (title == nil ? [] : Array("\u{1B}]2;\u{1B}\\".utf8))
    }

    /// The bytes that turn on again what ``resetSequence`` turned off, the title included.
    package var setSequence: [UInt8] {
        modes.setSequence + (title.map { Array("\u{1B}]2;".utf8) + $0 + Array("\u{1B}\\".utf8) } ?? [])
    }

    /// The screen is now `columns` × `rows`, as the real terminal was resized; rows are cut or
    /// padded, not reflowed. When it gets shorter, blank rows under the cursor go first, then
    /// rows leave at the top (final on the main screen), as in tmux; when it gets taller, blank
    /// rows come in at the bottom. The scroll region is reset to the whole screen.
    package mutating func resize(columns newColumns: Int, rows newRows: Int) {
        let newColumns = max(1, newColumns)
        let newRows = max(1, newRows)
        if newColumns != columns {
            buffer.resize(columns: newColumns)
            mainBuffer?.resize(columns: newColumns)
            tabStops = Self.defaultTabStops(newColumns)
            columns = newColumns
            cursor.column = min(cursor.column, newColumns - 1)
        }
        if newRows < rowCount {
            Self.resizeShorter(
                to: newRows, &buffer, cursorRow: &cursor.row, final: &final, isFinal: !isAlternateScreen)
            if var main = mainBuffer {
                // The main screen's rows that leave it are final, as if it were in use.
                var row = main.saved?.row ?? 0
                Self.resizeShorter(to: newRows, &main, cursorRow: &row, final: &final, isFinal: true)
                main.saved?.row = row
                mainBuffer = main
            }
        } else if newRows > rowCount {
            for _ in rowCount..<newRows {
                buffer.rows.append(buffer.newRow())
                if var main = mainBuffer {
                    main.rows.append(main.newRow())
                    mainBuffer = main
                }
            }
        }
        if newRows != rowCount {
            // Rows may have left the top: the rows' numbers start afresh.
            rowsAbove += rowCount
            redraw.lowestRow = min(redraw.lowestRow, newRows - 1, max(cursor.row, 0))
        }
        rowCount = newRows
        scrollRegion = (0, newRows - 1)
        if let saved = buffer.saved { buffer.saved?.row = min(saved.row, newRows - 1) }
    }

    private static func resizeShorter(
        to newRows: Int, _ screen: inout ScreenBuffer, cursorRow: inout Int, final: inout FinalRows, isFinal: Bool
    ) {
        while screen.rows.count > newRows, screen.rows.count - 1 > cursorRow, screen.rows.last?.isBlank == true {
            screen.rows.removeLast()
        }
        while screen.rows.count > newRows {
            let row = screen.rows.removeFirst()
            if isFinal { final.append(row, next: screen.rows.first) }
            cursorRow -= 1
        }
        while screen.rows.count > newRows { screen.rows.removeLast() }
        cursorRow = max(0, min(cursorRow, newRows - 1))
    }
}
