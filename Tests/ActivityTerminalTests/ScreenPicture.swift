import Foundation
import TestSupport
import Testing

@testable import ActivityTerminal

/// What a terminal shows after a byte stream, in the terms both the screen model and tmux can
/// give: every line of the scrollback and the screen as text, the same with each cell's style,
/// and the cursor.
struct ScreenPicture: Equatable, CustomStringConvertible {
    /// The scrollback then the screen, trailing blanks dropped, trailing empty lines dropped.
    var lines: [String]
    /// Each line's cells (character and style) up to its last one not blank.
    var styledLines: [[StyledCell]]
    var cursor: [Int]

    struct StyledCell: Equatable, CustomStringConvertible {
        var character: Character
        var style: CellStyle
        var description: String {
            style.isDefault
                ? String(character)
                : "\(character)[\(style.foreground)/\(style.background)/\(style.attributes.rawValue)]"
        }
    }

    var description: String { lines.joined(separator: "\n") + "\ncursor \(cursor)" }

    /// The fixtures recorded from real programs (`Fixtures/Screen/README.md`).
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Screen")

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    /// What the screen model shows after `bytes`: its final rows, then its screen.
    static func model(_ bytes: [UInt8], columns: Int, rows: Int) -> ScreenPicture {
        var screen = CommandScreen(columns: columns, rows: rows)
        screen.feed(bytes)
        let final = split(screen.takeFinalBytes())
        let rowBytes = final + screen.rows.map(\.bytes)
        return ScreenPicture(
            lines: trimmed(rowBytes.map(plainText)),
            styledLines: trimmed(cells(of: rowBytes, columns: columns, carryingStyle: false)),
            cursor: [screen.cursor.column, screen.cursor.row])
    }

    /// What tmux shows in a pane of the same size after `bytes` written to it as they are (no
    /// output processing: `stty -opost`), with a history long enough for all of it.
    static func tmux(_ bytes: [UInt8], columns: Int, rows: Int) throws -> ScreenPicture {
        let pane = try TmuxPane(width: columns, height: rows, command: ["sleep", "100000"])
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("stream")
        try Data(bytes).write(to: file)
        // The history limit applies to panes made after it is set: the stream goes to a new window.
        try pane.tmux(["set-option", "-g", "history-limit", "100000"])
        let script = "stty -opost -echo; cat '\(file.path)'; printf '\\033]2;stream-done\\033\\\\'; exec sleep 100000"
        try pane.tmux(["new-window", script])
        try pane.tmux(["resize-window", "-x", "\(columns)", "-y", "\(rows)"])
        // The title is set after the stream, so once it shows, tmux has drawn all of it.
        try #require(pane.waitFor(format: "#{pane_title}", toBe: "stream-done"), "tmux never drew the stream")
        let text = try pane.tmux(["capture-pane", "-p", "-S", "-"]).standardOutput
        let styled = try pane.tmux(["capture-pane", "-p", "-e", "-S", "-"]).standardOutput
        let cursor = pane.display("#{cursor_x} #{cursor_y}").split(separator: " ").compactMap { Int($0) }
        return ScreenPicture(
            lines: trimmed(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)),
            styledLines: trimmed(
                cells(
                    of: styled.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) },
                    columns: columns, carryingStyle: true)),
            cursor: cursor)
    }

    /// Rows of final bytes, each ending in `\r\n`, apart.
    static func split(_ bytes: [UInt8]) -> [[UInt8]] {
        var rows: [[UInt8]] = []
        var row: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                rows.append(row)
                row = []
                index += 2
            } else {
                row.append(bytes[index])
                index += 1
            }
        }
        if !row.isEmpty { rows.append(row) }
        return rows
    }

    /// A row's text: its bytes without SGR sequences (the only ones a row's bytes hold), and
    /// without trailing spaces, as `capture-pane -p` leaves out even those with a background.
    static func plainText(_ bytes: [UInt8]) -> String {
        var text = String(decoding: bytes, as: UTF8.self).replacing(#/\u{1B}\[[0-9;]*m/#, with: "")
        while text.last == " " { text.removeLast() }
        return text
    }

    /// Each line's cells, read back through a one-row screen. tmux's `capture-pane -e` carries
    /// the style from one line to the next; the model's rows each start and end in the default.
    static func cells(of lines: [[UInt8]], columns: Int, carryingStyle: Bool) -> [[StyledCell]] {
        var style = CellStyle()
        return lines.map { line in
            var screen = CommandScreen(columns: columns + 1, rows: 1)
            if carryingStyle { screen.style = style }
            screen.feed(line)
            style = screen.style
            var cells = screen.rows[0].cells.filter { $0.width > 0 }.map {
                StyledCell(character: $0.character, style: $0.style)
            }
            // tmux's capture leaves out trailing blanks, even in a background colour.
            while let last = cells.last, last.character == " " { cells.removeLast() }
            return cells
        }
    }

    static func trimmed<Line: Collection>(_ lines: [Line]) -> [Line] {
        var lines = lines
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        return lines
    }
}
