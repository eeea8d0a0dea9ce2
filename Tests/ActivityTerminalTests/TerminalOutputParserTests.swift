import Testing

@testable import ActivityTerminal

@Suite("What a command writes to its terminal, cut for the display")
struct TerminalOutputParserTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Feeds `chunks` and returns every piece, with idle flushes where `nil` stands.
    func parse(_ chunks: [String?], finish: Bool = false) -> [CommandOutput] {
        var parser = TerminalOutputParser()
        var pieces: [CommandOutput] = []
        for chunk in chunks {
            pieces += chunk.map { parser.feed(bytes($0)) } ?? parser.flushIdle()
        }
        if finish { pieces += parser.finish() }
        return pieces
    }

    @Test("lines end in \\n or \\r\\n, even cut across reads")
    func lines() {
        #expect(
            parse(["one\r\ntw", "o\n", "three\r", "\n"]) == [
                .line(bytes("one")), .line(bytes("two")), .line(bytes("three")),
            ])
    }

    @Test("colours stay; cursor movement, erasing, titles and other sequences go")
    func sequences() {
        let pieces = parse(["\u{1B}[1;34mblue\u{1B}[0m \u{1B}[2J\u{1B}[5Aup\u{1B}]0;title\u{07} \u{1B}(Bdone\n"])
        #expect(pieces == [.line(bytes("\u{1B}[1;34mblue\u{1B}[0m up done"))])
    }

    @Test("a colour left on at the end of a line is set again at the start of the next, until reset")
    func coloursAcrossLines() {
        let pieces = parse(["\u{1B}[31mred\nstill \u{1B}[1mred\u{1B}[0m normal\nplain\n"])
        #expect(
            pieces == [
                .line(bytes("\u{1B}[31mred")), .line(bytes("\u{1B}[31mstill \u{1B}[1mred\u{1B}[0m normal")),
                .line(bytes("plain")),
            ])
    }

    @Test("a line's tabs become spaces to the next multiple of 8 columns, colours not counted")
    func tabs() {
        let pieces = parse(["\u{1B}[32mx\u{1B}[0m\tcol2\tcol3\n"])
        #expect(pieces == [.line(bytes("\u{1B}[32mx\u{1B}[0m       col2    col3"))])
    }

    @Test("text is sanitized: C1 controls and bidirectional overrides never reach the terminal")
    func sanitized() {
        let pieces = parse(["a\u{9B}31mb \u{202E}evil\u{7}\n"])
        #expect(pieces == [.line(bytes("ab evil"))])
    }

    @Test("a line rewritten with \\r is a status each time, and its last version is the line")
    func rewrites() {
        let pieces = parse(["\r10%", "\r20%\r", "30%", nil, "\r40%\n"])
        #expect(
            pieces == [
                .status("10%"), .status("20%"), .status("30%"), .status("30%"), .line(bytes("40%")), .status(""),
            ])
    }

    @Test("git's style, the \\r after the text, and an empty last version")
    func trailingCarriageReturn() {
        let pieces = parse(["Receiving objects:  50%\r", "Receiving objects: 100%, done.\r\n"])
        #expect(
            pieces == [
                .status("Receiving objects:  50%"), .line(bytes("Receiving objects: 100%, done.")), .status(""),
            ])
    }

    @Test("a line that sits still is a prompt; the echoed answer follows it; the line's end ends it")
    func prompt() {
        let pieces = parse(["Continue? [Y/n] ", nil, "y", nil, "es\r\n", "next\n"])
        #expect(
            pieces == [
                .prompt(bytes("Continue? [Y/n] ")), .prompt(bytes("y")),
                .promptEnd(rest: bytes("es"), line: bytes("Continue? [Y/n] yes")), .line(bytes("next")),
            ])
    }

    @Test("an erase echoed on a shown prompt (\\b \\b) reaches the terminal as it came")
    func backspace() {
        let pieces = parse(["name: ", nil, "ab", "\u{8} \u{8}", "c\n"])
        #expect(
            pieces == [
                .prompt(bytes("name: ")), .prompt(bytes("ab")), .prompt([0x08]), .prompt(bytes(" ")), .prompt([0x08]),
                .promptEnd(rest: bytes("c"), line: bytes("name: ac")),
            ])
    }

    @Test("bash's prompt: the \\r before it rewrites nothing, and readline's erase (\\b CSI K) reaches the terminal")
    func shellPrompt() {
        // What bash writes after a command and before its prompt, then the echo of a typed line
        // and of one backspace.
        let pieces = parse(["x\r\n\u{1B}[?2004l\r\u{1B}[?2004hIN> ", nil, "echo abc", "\u{8}\u{1B}[K", nil])
        #expect(
            pieces == [
                .line(bytes("x")), .prompt(bytes("IN> ")), .prompt(bytes("echo abc")), .prompt([0x08]),
                .prompt(bytes("\u{1B}[K")),
            ])
    }

    @Test("readline's redraw of a prompt's line (Ctrl-U: \\r, moves right, erase) stays on the prompt")
    func shellLineRedraw() {
        let pieces = parse(
            ["IN> ", nil, "echo xyz", "\r\u{1B}[C\u{1B}[C\u{1B}[C\u{1B}[C\u{1B}[K", nil, "echo 42", "\r\n"])
        let right = bytes("\u{1B}[C")
        #expect(
            pieces == [
                .prompt(bytes("IN> ")), .prompt(bytes("echo xyz")), .prompt([0x0D]), .prompt(right), .prompt(right),
                .prompt(right), .prompt(right), .prompt(bytes("\u{1B}[K")), .prompt(bytes("echo 42")),
                .promptEnd(rest: [], line: bytes("IN> echo 42")),
            ])
    }

    @Test("a still line cleared with \\r CSI K and rewritten is a status again, not a prompt")
    func clearedLineIsStatus() {
        let pieces = parse(["Working 10%", nil, "\r\u{1B}[KWorking 20%", "\r\u{1B}[KWorking 30%", nil])
        #expect(
            pieces == [
                .prompt(bytes("Working 10%")), .prompt([0x0D]), .prompt(bytes("\u{1B}[K")), .promptCancelled,
                .status("Working 20%"), .status("Working 30%"),
            ])
    }

    @Test("a prompt rewritten with \\r is cleared and becomes a status")
    func promptCancelled() {
        let pieces = parse(["Working", nil, "\rStill working", nil])
        #expect(pieces == [.prompt(bytes("Working")), .promptCancelled, .status("Working"), .status("Still working")])
    }

    @Test("a UTF-8 character cut across reads is never shown in halves")
    func characters() {
        let check = Array("✔".utf8)
        var parser = TerminalOutputParser()
        #expect(parser.feed(bytes("ok ") + check.prefix(2)).isEmpty)
        #expect(parser.flushIdle() == [.prompt(bytes("ok "))])
        // On a shown prompt, the rest comes out as soon as the character is whole.
        #expect(parser.feed(check.suffix(1)) == [.prompt(check)])
    }

    @Test("the alternate screen passes untouched, from the switch there to the switch back")
    func fullScreen() {
        let screen = "\u{1B}[?1049h\u{1B}[H\u{1B}[2Jpage\u{1B}[7mstatus"
        let pieces = parse(["before\n", screen, "\u{1B}[?10", "49lafter\n"])
        #expect(
            pieces == [
                .line(bytes("before")), .enterFullScreen, .fullScreen(bytes(screen)), .fullScreen(bytes("\u{1B}[?10")),
                .leaveFullScreen(bytes("49l")), .line(bytes("after")),
            ])
    }

    @Test("an endless line is cut at 64 KiB; what is left at the end is the last line")
    func bounded() {
        var parser = TerminalOutputParser()
        let pieces = parser.feed([UInt8](repeating: UInt8(ascii: "x"), count: 70_000))
        #expect(pieces == [.line([UInt8](repeating: UInt8(ascii: "x"), count: TerminalOutputParser.maxLineBytes))])
        #expect(parser.finish() == [.line([UInt8](repeating: UInt8(ascii: "x"), count: 70_000 - 65_536))])
    }
}
