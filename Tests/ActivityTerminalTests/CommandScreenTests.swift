import Foundation
import Testing

@testable import ActivityTerminal

/// Which rows of a command's screen are final, and what their bytes are, on recorded programs'
/// output and on the cases the rule must hold for.
@Suite("CommandScreen: final rows and live rows")
struct CommandScreenTests {
    static func screen(_ text: String, columns: Int = 100, rows: Int = 30) -> CommandScreen {
        var screen = CommandScreen(columns: columns, rows: rows)
        screen.feed(Array(text.utf8))
        return screen
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The final rows' text after the command ended.
    static func finalLines(_ bytes: [UInt8], columns: Int = 100, rows: Int = 30) -> [String] {
        var screen = CommandScreen(columns: columns, rows: rows)
        screen.feed(bytes)
        screen.finish()
        return ScreenPicture.split(screen.takeFinalBytes()).map(ScreenPicture.plainText)
    }

    @Test("plain lines: each is final once it scrolls off, the rest when the command ends")
    func plainLines() {
        var screen = Self.screen((1...32).map { "line \($0)\r\n" }.joined(), rows: 30)
        #expect(Self.text(screen.takeFinalBytes()) == "line 1\r\nline 2\r\nline 3\r\n")
        #expect(screen.takeFinalBytes().isEmpty, "a final row is reported once")
        #expect(screen.usedRowCount == 29)
        screen.finish()
        let rest = Self.text(screen.takeFinalBytes())
        #expect(rest == (4...32).map { "line \($0)\r\n" }.joined())
        #expect(screen.usedRowCount == 0)
    }

    @Test("plain text carries no escape sequence; a style costs only its SGR, reset at the row's end")
    func rowBytes() {
        var screen = Self.screen("plain text\r\n\u{1B}[1;31mred\u{1B}[22m not bold\u{1B}[0m, plain\r\n", rows: 2)
        screen.finish()
        #expect(
            Self.text(screen.takeFinalBytes())
                == "plain text\r\n\u{1B}[1;31mred\u{1B}[0;31m not bold\u{1B}[m, plain\r\n")
    }

    @Test("a \\r status line is one row, final as it stood last")
    func carriageReturnStatus() {
        #expect(Self.finalLines(Array("10%\r50%\r100%\r\ndone\r\n".utf8)) == ["100%", "done"])
        let screen = Self.screen("working 10%\rworking 50%")
        #expect(screen.pendingFinalRows == 0)
        #expect(screen.usedRowCount == 1)
        #expect(screen.rows[0].text == "working 50%")
    }

    @Test("tqdm's nested bars leave the outer bar and the line after it")
    func tqdmNested() throws {
        let lines = Self.finalLines(try ScreenPicture.fixture("tqdm-nested.bytes"))
        try #require(lines.count == 2)
        #expect(lines[0].hasPrefix("outer: 100%|") && lines[0].hasSuffix("3/3 [00:00<00:00,  4.65it/s]"))
        #expect(lines[1] == "done")
    }

    @Test("rich's Progress with two tasks leaves its last frame")
    func richProgress() throws {
        let lines = Self.finalLines(try ScreenPicture.fixture("rich-progress.bytes"))
        try #require(lines.count == 3)
        #expect(lines[0].hasPrefix("Downloading...") && lines[0].contains("100%"))
        #expect(lines[1].hasPrefix("Processing...") && lines[1].contains(" 50%"))
        #expect(lines[2] == "finished")
    }

    @Test("rows redrawn with cursor-up are live until the command ends, then final as they stand")
    func cursorUp() throws {
        let bytes = try ScreenPicture.fixture("cursor-up.bytes")
        var screen = CommandScreen(columns: 100, rows: 30)
        screen.feed(bytes.prefix(bytes.count / 2))
        #expect(screen.pendingFinalRows == 0)
        screen.feed(bytes.dropFirst(bytes.count / 2))
        screen.finish()
        let final = screen.takeFinalBytes()
        #expect(
            ScreenPicture.split(final).map(ScreenPicture.plainText) == [
                "start", "job a: step 5 of 5", "job b: step 5 of 5", "job c: step 5 of 5", "all done",
            ])
        #expect(Self.text(final).contains("\u{1B}[1mjob a\u{1B}[m: step 5 of 5\r\n"))
    }

    @Test("a status row kept under a scroll region never becomes final; the lines scrolling above it do")
    func scrollRegionStatus() throws {
        let bytes = try ScreenPicture.fixture("scroll-region.bytes")
        var screen = CommandScreen(columns: 100, rows: 30)
        // Up to package 34: the region (rows 1 to 29) has scrolled 6 times, the status row is drawn.
        let cut = try #require(Self.text(bytes).range(of: "Setting up package-35")).lowerBound.utf16Offset(
            in: Self.text(bytes))
        screen.feed(bytes.prefix(cut))
        let scrolled = ScreenPicture.split(screen.takeFinalBytes()).map(ScreenPicture.plainText)
        #expect(scrolled == (1...6).map { "Setting up package-\($0) (1.0-\($0)) ..." })
        #expect(screen.rows[29].text == "Progress: [ 85%]")
        #expect(screen.rows[29].cells[0].style.background == .indexed(2))
        screen.feed(bytes.dropFirst(cut))
        screen.finish()
        let all = scrolled + ScreenPicture.split(screen.takeFinalBytes()).map(ScreenPicture.plainText)
        #expect(!all.contains { $0.contains("Progress") })
        #expect(all.filter { $0.hasPrefix("Setting up") }.count == 40)
    }

    @Test("a prompt being typed is live, then final with what was typed")
    func prompt() throws {
        let bytes = try ScreenPicture.fixture("read-prompt.bytes")
        var screen = CommandScreen(columns: 100, rows: 30)
        let typing = Array("\u{1B}[?2004hYour name: Ann".utf8)
        screen.feed(typing)
        #expect(screen.pendingFinalRows == 0)
        #expect(screen.rows[0].text == "Your name: Ann" && screen.cursor == (0, 14))
        #expect(screen.usedRowCount == 1)
        screen.feed(bytes.dropFirst(typing.count))
        screen.finish()
        #expect(
            ScreenPicture.split(screen.takeFinalBytes()).map(ScreenPicture.plainText) == [
                "Your name: Ann Lee", "Hello, Ann Lee",
            ])
        #expect(!screen.modes.isChanged, "bracketed paste was turned off again")
    }

    @Test(
        "bytes cut anywhere give the same screen as bytes read at once",
        arguments: CommandScreenTmuxTests.recorded + ["vim.bytes"])
    func cutAnywhere(name: String) throws {
        let bytes = try ScreenPicture.fixture(name)
        var whole = CommandScreen(columns: 100, rows: 30)
        whole.feed(bytes)
        var cut = CommandScreen(columns: 100, rows: 30)
        for byte in bytes { cut.feed([byte]) }
        #expect(cut.takeFinalBytes() == whole.takeFinalBytes())
        #expect(cut.rows == whole.rows && cut.cursor == whole.cursor)
    }

    @Test("the alternate screen: nothing on it is final, the main screen comes back as it was")
    func alternateScreen() {
        var screen = Self.screen(
            "kept\r\n\u{1B}[?1049h\u{1B}[?25l" + (1...40).map { "full \($0)\r\n" }.joined(), rows: 10)
        #expect(screen.isAlternateScreen)
        #expect(screen.pendingFinalRows == 0)
        #expect(Self.text(screen.resetSequence) == "\u{1B}[?25h\u{1B}[?1049l")
        screen.feed(Array("\u{1B}[?1049l\u{1B}[?25h".utf8))
        #expect(!screen.isAlternateScreen && screen.cursor == (1, 0))
        #expect(screen.rows[0].text == "kept" && screen.rows[1].isBlank)
        screen.finish()
        #expect(Self.text(screen.takeFinalBytes()) == "kept\r\n")
    }

    @Test("a command that ends on the alternate screen leaves only what it wrote before it")
    func endsOnAlternateScreen() {
        var screen = Self.screen("\u{1B}[?1049hvim's screen")
        screen.finish()
        #expect(screen.takeFinalBytes().isEmpty)
        var before = Self.screen("before\r\n\u{1B}[?1049h\u{1B}[Hvim's screen\r\n\r\n")
        before.finish()
        #expect(Self.text(before.takeFinalBytes()) == "before\r\n")
    }

    @Test("clearing the whole main screen keeps what it showed as final rows, as tmux does")
    func clearScreen() {
        var screen = Self.screen("one\r\ntwo\r\n\u{1B}[H\u{1B}[2Jthree", rows: 10)
        #expect(Self.text(screen.takeFinalBytes()) == "one\r\ntwo\r\n")
        screen.feed(Array("\u{1B}[H\u{1B}[J".utf8))
        #expect(Self.text(screen.takeFinalBytes()) == "three\r\n")
        var alternate = Self.screen("\u{1B}[?1049hone\u{1B}[2J")
        #expect(alternate.takeFinalBytes().isEmpty)
    }

    @Test("a terminal made shorter pushes the top rows out as final; narrower cuts rows")
    func resize() {
        var screen = Self.screen("a\r\nb\r\nc\r\nd\r\n日本", columns: 10, rows: 6)
        screen.resize(columns: 10, rows: 3)
        #expect(Self.text(screen.takeFinalBytes()) == "a\r\nb\r\n")
        #expect(screen.rows.map(\.text) == ["c", "d", "日本"] && screen.cursor == (2, 4))
        screen.resize(columns: 3, rows: 4)
        #expect(screen.rows.map(\.text) == ["c", "d", "日", ""])
        #expect(screen.cursor == (2, 2) && screen.scrollRegion == (0, 3))
    }

    @Test("statusRow: a row rewritten from its start after \\r, until a line feed; not a prompt's redraw")
    func statusRow() {
        #expect(Self.screen("10%\r20%").statusRow == 0)
        #expect(Self.screen("10%\r20%\r\n").statusRow == nil)
        #expect(Self.screen("\rIN> ").statusRow == nil, "a \\r on an empty row rewrites nothing")
        #expect(Self.screen("IN> echo ab\r\u{1B}[4C\u{1B}[Kx").statusRow == nil, "readline's redraw")
        #expect(Self.screen("one\r\ntwo\r2").statusRow == 1)
    }
}
