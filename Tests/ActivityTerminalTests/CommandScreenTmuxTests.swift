import Foundation
import TestSupport
import Testing

@testable import ActivityTerminal

/// The screen model against tmux as the reference terminal: the same byte stream, written to a
/// tmux pane of the same size, leaves the same scrollback and screen, styles and cursor.
@Suite("CommandScreen against tmux: the same scrollback, screen, styles and cursor", .serialized)
struct CommandScreenTmuxTests {
    /// Byte streams recorded from real programs on a 100 × 30 terminal (see the fixtures' README).
    static let recorded = [
        "tqdm-nested.bytes", "rich-progress.bytes", "cursor-up.bytes", "scroll-region.bytes", "long-lines.bytes",
        "wide.bytes", "read-prompt.bytes", "less-X.bytes",
    ]

    @Test("a recorded program's output", .enabled(if: TmuxPane.isInstalled), arguments: recorded)
    func recordedProgram(name: String) throws {
        try compare(ScreenPicture.fixture(name), columns: 100, rows: 30)
    }

    @Test(
        "the final rows, written to a terminal, leave the scrollback the command left",
        .enabled(if: TmuxPane.isInstalled),
        arguments: recorded + ["vim.bytes"])
    func finalRowsReproduce(name: String) throws {
        let bytes = Array("$ program\r\n".utf8) + (try ScreenPicture.fixture(name))
        var screen = CommandScreen(columns: 100, rows: 30)
        screen.feed(bytes)
        screen.finish()
        let replayed = try ScreenPicture.tmux(screen.takeFinalBytes(), columns: 100, rows: 30)
        let bare = try ScreenPicture.tmux(bytes, columns: 100, rows: 30)
        #expect(replayed.lines == bare.lines)
        #expect(replayed.styledLines == bare.styledLines)
    }

    @Test("vim on the alternate screen leaves the main screen as it was", .enabled(if: TmuxPane.isInstalled))
    func vim() throws {
        try compare(Array("$ vim lines.txt\r\n".utf8) + ScreenPicture.fixture("vim.bytes"), columns: 100, rows: 30)
    }

    @Test("1 MB without a line break", .enabled(if: TmuxPane.isInstalled))
    func megabyteWithoutNewline() throws {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 20)
        var line = 0
        while bytes.count < 1 << 20 {
            bytes += Array("chunk \(line) of text;".utf8)
            line += 1
        }
        try compare(Array(bytes.prefix(1 << 20)), columns: 100, rows: 30)
    }

    @Test(
        "edits: erase, insert and delete, tabs, origin mode, REP, save and restore", .enabled(if: TmuxPane.isInstalled))
    func edits() throws {
        try compare(Self.editStream, columns: 40, rows: 12)
    }

    @Test("the alternate screen leaves the main one as it was", .enabled(if: TmuxPane.isInstalled))
    func alternateScreen() throws {
        let stream = "before\r\n\u{1B}[?1049h\u{1B}[Hfull screen\r\n\u{1B}[5;5Hthere\u{1B}[?1049lafter\r\n"
        try compare(Array(stream.utf8), columns: 40, rows: 10)
    }

    @Test("clearing the screen: ED 2, ED 0 from the top left, RIS", .enabled(if: TmuxPane.isInstalled))
    func clear() throws {
        for stream in ["a\r\nb\r\nc\u{1B}[2Jd", "a\r\nb\r\nc\u{1B}[H\u{1B}[Jd", "a\r\nb\r\nc\u{1B}cd"] {
            try compare(Array(stream.utf8), columns: 20, rows: 6)
        }
    }

    @Test("styles: 16, 256 and 24-bit colours, attributes, background colour erase", .enabled(if: TmuxPane.isInstalled))
    func styles() throws {
        let stream =
            "\u{1B}[1;3;4mbold italic underline\u{1B}[22;23;24m plain\r\n"
            + "\u{1B}[38;5;208mindexed\u{1B}[48;2;10;20;30m rgb background\u{1B}[0m\r\n"
            + "\u{1B}[44mblue\u{1B}[K\u{1B}[0m\r\n" + "\u{1B}[7minverse\u{1B}[27m \u{1B}[9mstrike\u{1B}[m\r\n"
            + "\u{1B}[95;101mbright\u{1B}[39;49m back\r\n"
        try compare(Array(stream.utf8), columns: 40, rows: 10)
    }

    /// A stream that uses every edit the model implements, on a 40 × 12 screen.
    static let editStream: [UInt8] = {
        var text = ""
        for row in 1...12 { text += "row \(row) " + String(repeating: "abcdefghij", count: 3) + "\r\n" }
        text += "\u{1B}[3;5H\u{1B}[3@INS\u{1B}[2P\u{1B}[4X"  // insert, delete, erase characters
        text += "\u{1B}[5;10H\u{1B}[1K\u{1B}[6;10H\u{1B}[0K\u{1B}[7;1H\u{1B}[2K"  // erase in line
        text += "\u{1B}[8;1H\u{1B}[2L\u{1B}[10;1H\u{1B}[1M"  // insert and delete lines
        text += "\u{1B}[1;1Htab\tx\ty\u{1B}[3g\u{1B}[1;30H\u{1B}H\r\tz\u{1B}[Zw"  // tabs, HTS, TBC, CBT
        text += "\u{1B}[2;6r\u{1B}[?6h\u{1B}[2;2Horigin\u{1B}[10Bbottom\u{1B}[?6l\u{1B}[r"  // origin mode
        text += "\u{1B}[11;1H-\u{1B}[9b\u{1B}7\u{1B}[1;35Hsaved\u{1B}8+"  // REP, save and restore
        text += "\u{1B}[12;38Hwrap around\u{1B}[3;20r\u{1B}[20;1H\u{1B}[2S\u{1B}[1T\u{1B}[r"  // wrap, SU, SD
        text += "\u{1B}[4;1H\u{1B}M\u{1B}[1;1H\u{1B}Mtop\u{1B}[12;1H\u{1B}Dbottom\u{1B}Enext line"  // RI, IND, NEL
        text += "\u{1B}[6;3H\u{1B}[1J"  // erase above (not line drawing: tmux captures its letters)
        return Array(text.utf8)
    }()

    private func compare(
        _ bytes: [UInt8], columns: Int, rows: Int, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        let model = ScreenPicture.model(bytes, columns: columns, rows: rows)
        let reference = try ScreenPicture.tmux(bytes, columns: columns, rows: rows)
        try #require(!reference.lines.isEmpty, "tmux showed nothing", sourceLocation: sourceLocation)
        #expect(model.lines.count == reference.lines.count, sourceLocation: sourceLocation)
        for (index, (line, expected)) in zip(model.lines, reference.lines).enumerated() where line != expected {
            Issue.record(
                "line \(index): \(line.debugDescription) is \(expected.debugDescription) in tmux",
                sourceLocation: sourceLocation)
            break
        }
        for (index, (line, expected)) in zip(model.styledLines, reference.styledLines).enumerated()
        where line != expected {
            Issue.record("line \(index)'s styles: \(line) are \(expected) in tmux", sourceLocation: sourceLocation)
            break
        }
        #expect(model.cursor == reference.cursor, sourceLocation: sourceLocation)
    }
}
