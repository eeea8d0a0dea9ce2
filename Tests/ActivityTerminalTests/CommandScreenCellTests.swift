import Testing

@testable import ActivityTerminal

/// What the screen model puts in its cells: wide characters and clusters, styles, the DEC
/// line-drawing set, and the modes and title it follows (what tmux's capture cannot show).
@Suite("CommandScreen: cells, styles, modes")
struct CommandScreenCellTests {
    static func screen(_ text: String, columns: Int = 20, rows: Int = 4) -> CommandScreen {
        var screen = CommandScreen(columns: columns, rows: rows)
        screen.feed(Array(text.utf8))
        return screen
    }

    @Test("a wide character takes two cells; one that does not fit at the margin wraps whole")
    func wide() {
        let screen = Self.screen("0123456789abcdefghi日本", columns: 20)
        #expect(screen.rows[0].text == "0123456789abcdefghi")
        #expect(screen.rows[0].wrapped)
        #expect(screen.rows[1].cells[0].width == 2 && screen.rows[1].cells[1].width == 0)
        #expect(screen.rows[1].text == "日本" && screen.cursor == (1, 4))
    }

    @Test("writing over half of a wide character blanks the other half")
    func halfOverwritten() {
        let screen = Self.screen("日本語\r\u{1B}[Ca\u{1B}[5GX")
        #expect(screen.rows[0].text == " a本X")
        #expect(screen.rows[0].cells[0].isBlank && screen.rows[0].cells[5].isBlank)
        #expect(screen.rows[0].cells.map(\.width).prefix(6) == [1, 1, 2, 0, 1, 1])
    }

    @Test("clusters: a combining accent, an emoji made wide by U+FE0F, a ZWJ family, a flag")
    func clusters() {
        let screen = Self.screen("e\u{301}|\u{2764}\u{FE0F}|👨\u{200D}👩\u{200D}👧|🇫🇷|")
        let cells = screen.rows[0].cells.filter { $0.width > 0 }.map(\.character)
        #expect(cells.prefix(6) == ["e\u{301}", "|", "\u{2764}\u{FE0F}", "|", "👨\u{200D}👩\u{200D}👧", "|"])
        #expect(cells[6] == "🇫🇷")
        #expect(screen.cursor.column == 1 + 1 + 2 + 1 + 2 + 1 + 2 + 1, "each cluster is as wide as DisplayWidth says")
        #expect(screen.rows[0].text == "e\u{301}|\u{2764}\u{FE0F}|👨\u{200D}👩\u{200D}👧|🇫🇷|")
    }

    @Test("the DEC line-drawing set is written as the characters it draws")
    func lineDrawing() {
        let screen = Self.screen("\u{1B}(0lqk\u{1B}(B lqk \u{1B})0\u{0E}x\u{0F}x")
        #expect(screen.rows[0].text == "┌─┐ lqk │x")
    }

    @Test("SGR: 16, 256 and 24-bit colours, attributes on and off, a reset")
    func sgr() {
        var style = CellStyle()
        style.apply(sgr: [1, 4, 38, 2, 255, 128, 0, 48, 5, 236])
        #expect(style.foreground == .rgb(255, 128, 0) && style.background == .indexed(236))
        #expect(style.attributes == [.bold, .underline])
        style.apply(sgr: [22, 24, 94, 49])
        #expect(style == CellStyle(foreground: .indexed(12)))
        style.apply(sgr: [38, 5])  // cut short: the rest of the sequence is ignored
        #expect(style == CellStyle(foreground: .indexed(12)))
        style.apply(sgr: [])
        #expect(style.isDefault)
    }

    @Test("the SGR between two styles adds what is new, or resets first when something goes")
    func transitions() {
        let bold = CellStyle(attributes: .bold)
        let boldRed = CellStyle(foreground: .indexed(1), attributes: .bold)
        #expect(String(decoding: CellStyle().transition(to: bold), as: UTF8.self) == "\u{1B}[1m")
        #expect(String(decoding: bold.transition(to: boldRed), as: UTF8.self) == "\u{1B}[31m")
        #expect(
            String(decoding: boldRed.transition(to: CellStyle(foreground: .indexed(1))), as: UTF8.self)
                == "\u{1B}[0;31m")
        #expect(String(decoding: bold.transition(to: CellStyle()), as: UTF8.self) == "\u{1B}[m")
        let rgb = CellStyle(foreground: .rgb(1, 2, 3), background: .indexed(200))
        #expect(String(decoding: CellStyle().transition(to: rgb), as: UTF8.self) == "\u{1B}[38;2;1;2;3;48;5;200m")
        #expect(bold.transition(to: bold).isEmpty)
    }

    @Test("an erase leaves the background colour in use, and the row's bytes draw it as spaces")
    func backgroundColourErase() {
        var screen = Self.screen("\u{1B}[44mab\u{1B}[K\u{1B}[0m", columns: 6, rows: 2)
        #expect(screen.rows[0].cells[5].style == CellStyle(background: .indexed(4)))
        screen.finish()
        #expect(String(decoding: screen.takeFinalBytes(), as: UTF8.self) == "\u{1B}[44mab    \u{1B}[m\r\n")
    }

    @Test("modes: cursor, mouse, bracketed paste, keypad, cursor keys, scroll region, title; undone and redone")
    func modes() {
        let screen = Self.screen(
            "\u{1B}[?25l\u{1B}[?1000;1006h\u{1B}[?2004h\u{1B}=\u{1B}[?1h\u{1B}[1;3r\u{1B}]2;building\u{07}", rows: 4)
        #expect(screen.title == Array("building".utf8))
        #expect(screen.scrollRegion == (0, 2))
        #expect(
            String(decoding: screen.resetSequence, as: UTF8.self)
                == "\u{1B}7\u{1B}[r\u{1B}8\u{1B}>\u{1B}[?1l\u{1B}[?1000l\u{1B}[?1006l\u{1B}[?2004l\u{1B}[?25h"
                + "\u{1B}]2;\u{1B}\\")
        #expect(
            String(decoding: screen.setSequence, as: UTF8.self)
                == "\u{1B}[?25l\u{1B}[?2004h\u{1B}[?1006h\u{1B}[?1000h\u{1B}[?1h\u{1B}=\u{1B}7\u{1B}[1;3r\u{1B}8"
                + "\u{1B}]2;building\u{1B}\\")
        let plain = Self.screen("no modes\r\n")
        #expect(plain.resetSequence.isEmpty && plain.setSequence.isEmpty)
    }

    @Test("DECSC and CSI s save the cursor and its style; DECSTR puts the modes back")
    func saveRestore() {
        var screen = Self.screen("\u{1B}[2;3H\u{1B}[1m\u{1B}7\u{1B}[m\u{1B}[4;1Hx\u{1B}8y\u{1B}[s\u{1B}[Hz\u{1B}[uw")
        #expect(screen.rows[1].text == "  yw" && screen.rows[1].cells[2].style.attributes == .bold)
        #expect(screen.rows[1].cells[3].style.attributes == .bold)
        screen.feed(Array("\u{1B}[4h\u{1B}[?7l\u{1B}[2;3r\u{1B}[!p".utf8))
        #expect(screen.scrollRegion == (0, 3) && screen.style.isDefault)
        screen.feed(Array("\u{1B}[1;1HAB\u{1B}[1;1HC".utf8))
        #expect(screen.rows[0].text == "CB", "insert mode is off again")
    }

    @Test("without autowrap the last column is written over; REP repeats the last character")
    func noAutowrap() {
        let screen = Self.screen("\u{1B}[?7l0123456789abcdefghijKLM\r\n-\u{1B}[4b", columns: 20)
        #expect(screen.rows[0].text == "0123456789abcdefghiM" && !screen.rows[0].wrapped)
        #expect(screen.rows[1].text == "-----")
    }
}
