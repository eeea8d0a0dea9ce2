import ActivityTerminal
import ActivityWire
import Testing

@testable import ActivityRendering

@Suite("What the TTY display leaves on the screen when activity run's command stops")
struct StoppedCommandRowsTests {
    /// The command's screen after `bytes`, as the pump hands it over: its rows in use and its cursor.
    static func standing(
        _ bytes: String, columns: Int = 40, rows: Int = 10
    ) -> (
        [ScreenRow], CommandOutput.LiveCursor
    ) {
        var screen = CommandScreen(columns: columns, rows: rows)
        screen.feed(Array(bytes.utf8))
        let cursor = CommandOutput.LiveCursor(row: screen.cursor.row, column: min(screen.cursor.column, columns - 1))
        return (Array(screen.rows[..<screen.usedRowCount]), cursor)
    }

    @Test(
        "the rows drawn at the stop show what the command's screen shows, styles and cursor included",
        arguments: [
            // A `\r` bar under a bold line.
            "\u{1B}[1mtraining\u{1B}[0m\r\n\r 40%|\u{1B}[32m####\u{1B}[39m      | 4/10",
            // Two bars, the cursor on the lower one.
            "outer 1/3\r\ninner 5/20",
            // Finished lines, the cursor on the blank row under them.
            "step 1\r\nstep 2\r\n",
            // A prompt.
            "Continue? [Y/n] ",
        ])
    func drawsAsTheScreenStands(bytes: String) {
        let (rows, cursor) = Self.standing(bytes)
        var stopped = StoppedCommandRows()
        let drawn = stopped.draw(rows, cursor: cursor, columns: 40)
        var terminal = CommandScreen(columns: 40, rows: 10)
        terminal.feed(drawn)
        #expect(Array(terminal.rows[..<terminal.usedRowCount]) == rows)
        #expect(terminal.cursor.row == cursor.row && terminal.cursor.column == cursor.column)
        #expect(stopped.drawn == rows.map(\.bytes))
    }

    @Test("a cursor above the last row is left at the end of the last row, so the shell's line overwrites none")
    func cursorAboveTheLastRow() {
        // tqdm's nested bars: the cursor back on the outer bar, the inner one under it.
        let (rows, cursor) = Self.standing("outer 1/3\r\n\u{1B}[2Kinner 5/20\u{1B}[A\r")
        #expect(cursor.row == 0 && rows.count == 2)
        var stopped = StoppedCommandRows()
        let drawn = stopped.draw(rows, cursor: cursor, columns: 40)
        var terminal = CommandScreen(columns: 40, rows: 10)
        terminal.feed(drawn)
        #expect(Array(terminal.rows[..<terminal.usedRowCount]) == rows)
        #expect(terminal.cursor.row == 1 && terminal.cursor.column == "inner 5/20".count)
    }

    @Test(
        "rows drawn at the stop that become final unchanged are not printed again; a changed one and all after it are")
    func finalRowsAfterTheStop() {
        let (rows, cursor) = Self.standing("done 1\r\ndone 2\r\n 50%|#####     | 5/10")
        var stopped = StoppedCommandRows()
        _ = stopped.draw(rows, cursor: cursor, columns: 40)
        // The first row becomes final alone, then the second with the bar, now full, and a line after.
        let first = stopped.notDrawn(Array("done 1\r\n".utf8))
        #expect(first.isEmpty)
        let rest = stopped.notDrawn(Array("done 2\r\n100%|##########| 10/10\r\ndone 2\r\n".utf8))
        #expect(String(decoding: rest, as: UTF8.self) == "100%|##########| 10/10\r\ndone 2\r\n")
        // Once a row differed, nothing more is compared.
        #expect(stopped.drawn.isEmpty)
        let later = stopped.notDrawn(Array("done 1\r\n".utf8))
        #expect(later.count == 8)
    }

    @Test("with nothing drawn at a stop, final rows pass whole")
    func nothingDrawn() {
        var stopped = StoppedCommandRows()
        let bytes = Array("a\r\nb\r\n".utf8)
        let rest = stopped.notDrawn(bytes)
        #expect(Array(rest) == bytes)
    }

    @Test("the renderer leaves the command's rows at the stop, and prints only what changed after fg")
    func rendererAtTheStop() {
        let buffer = BufferOutput()
        let terminal = TerminalRenderer(
            output: buffer,
            configuration: .init(mode: .tty, size: TerminalSize(columns: 40, rows: 10), startTime: 0))
        let store = ActivityStore()
        let (rows, cursor) = Self.standing("done 1\r\n 50%|#####     | 5/10")
        terminal.commandOutput(.live(Array(rows.prefix(1)), cursor: nil), in: store)
        terminal.commandOutput(.standing(rows, cursor: cursor), in: store)
        terminal.stepAsideForStop()
        let atStop = buffer.text
        #expect(atStop.contains("done 1\r\n 50%|#####     | 5/10"), "\(atStop.debugDescription)")
        buffer.removeAll()
        terminal.commandOutput(.final(bytes: Array("done 1\r\n100%|##########| 10/10\r\n".utf8), rows: 2), in: store)
        terminal.flushNow(store)
        let after = buffer.text
        #expect(!after.contains("done 1"), "\(after.debugDescription)")
        #expect(after.contains("100%|##########| 10/10\r\n"), "\(after.debugDescription)")
    }
}
