import TestSupport
import Testing

@testable import ActivityTerminal

/// Runs of plain lines are taken whole (``CommandScreen/takePlainLines(_:from:scanned:)``): the
/// screen must end exactly as it does when every byte is written cell by cell.
@Suite("The command's screen: runs of plain lines taken whole")
struct PlainLinesTests {
    /// Everything a reader of the screen can see, and what the next bytes depend on.
    struct Observed: Equatable {
        var finalBytes: [UInt8]
        var finalRows: [FinalRows.Row]
        var rows: [ScreenRow]
        var numbers: [Int]
        var extents: [Int]
        var starts: [Bool]
        var cursor: [Int]
        var rowsAbove: Int
        var redraw: [Int]
        var statusRow: Int?
        var lastCell: ScreenCell?
        var drewSinceNoted: Bool
        /// The redrawn frames noted for the adapters: the final rows before each, and its rows.
        var overwritten: [[String]]

        init(_ screen: inout CommandScreen) {
            let final = screen.takeFinalRows()
            finalBytes = final.bytes
            finalRows = final.rows
            rows = screen.rows
            numbers = screen.rows.map(\.number)
            extents = screen.rows.map(\.extent)
            starts = screen.rows.map(\.startsLine)
            cursor = [screen.cursor.row, screen.cursor.column]
            rowsAbove = screen.rowsAbove
            redraw = [screen.redraw.lowestRow, screen.redraw.depth]
            statusRow = screen.statusRow
            lastCell = screen.lastCell
            drewSinceNoted = screen.drewSinceNoted
            overwritten = screen.takeOverwrittenFrames().map { frame in
                ["\(frame.finalCount)"]
                    + frame.lines.map { "\($0.number): " + String(decoding: $0.bytes, as: UTF8.self) }
            }
        }
    }

    /// A piece of output: mostly plain lines, with what breaks a run among them.
    static func piece(_ random: inout SplitMix64, columns: Int) -> [UInt8] {
        let letters = Array("abc xyz 0123456789 ".utf8)
        func text(_ length: Int) -> [UInt8] {
            (0..<length).map { _ in letters[Int(random.next() % UInt64(letters.count))] }
        }
        switch random.next() % 20 {
        case 0: return Array("\u{1B}[31mred\u{1B}[0m\r\n".utf8)
        case 1: return text(Int(random.next() % 6)) + Array("\r".utf8)  // a status line
        case 2: return Array("\u{1B}[2A".utf8)  // a redraw goes up
        case 3: return text(columns + Int(random.next() % 4)) + Array("\r\n".utf8)  // wraps
        case 4: return text(Int(random.next() % 5))  // a line cut at the end of a read
        case 5: return Array("\n".utf8)  // a line feed alone
        case 6: return Array("é\r\n".utf8)
        case 7: return text(3) + Array("   \r\n".utf8)  // trailing spaces
        case 8: return Array("\u{1B}[3b\r\n".utf8)  // REP of the last character
        default: return text(Int(random.next() % UInt64(columns))) + Array("\r\n".utf8)
        }
    }

    @Test(
        "random output in random reads: the same final rows, rows, numbers and cursor as cell by cell",
        arguments: 0..<40)
    func sameAsCellByCell(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let columns = 1 + Int(random.next() % 24)
        let rowCount = 1 + Int(random.next() % 8)
        var taken = CommandScreen(columns: columns, rows: rowCount)
        var written = CommandScreen(columns: columns, rows: rowCount)
        written.usesPlainLines = false
        // What the adapters read of the redraws too, as under `activity run`.
        taken.notesOverwrites = true
        written.notesOverwrites = true
        var output: [UInt8] = []
        for _ in 0..<400 {
            // Long runs of plain lines, the case the path exists for, now and then.
            if random.next() % 4 == 0 {
                for _ in 0..<(Int(random.next() % 40)) {
                    output += Self.piece(&random, columns: columns)
                }
            } else {
                output += Self.piece(&random, columns: columns)
            }
        }
        var index = 0
        while index < output.count {
            let end = min(output.count, index + 1 + Int(random.next() % 300))
            taken.feed(output[index..<end])
            written.feed(output[index..<end])
            index = end
            #expect(Observed(&taken) == Observed(&written), "seed \(seed), after byte \(end)")
        }
        taken.finish()
        written.finish()
        #expect(Observed(&taken) == Observed(&written), "seed \(seed), at the end")
    }

    @Test("the end of a run of printable ASCII, eight bytes at a time: every byte value at every place")
    func printableRunEnds() {
        for value in 0...255 {
            let byte = UInt8(value)
            let printable = byte >= 0x20 && byte < 0x7F
            for place in 0..<20 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 24)
                bytes[place] = byte
                bytes.withUnsafeBytes { raw in
                    #expect(CommandScreen.printableASCIIEnd(raw, from: 0, limit: 24) == (printable ? 24 : place))
                    let limit = 17
                    let expected = printable || place >= limit ? limit : place
                    #expect(CommandScreen.printableASCIIEnd(raw, from: 0, limit: limit) == expected)
                    let start = min(place, 5)
                    #expect(CommandScreen.printableASCIIEnd(raw, from: start, limit: 24) == (printable ? 24 : place))
                }
            }
        }
    }

    @Test("a screenful and more of plain lines in one read: taken whole, as their own bytes")
    func takenWhole() {
        var screen = CommandScreen(columns: 10, rows: 3)
        let lines = (1...10).map { "line \($0)" }
        let bytes = Array(lines.map { $0 + "\r\n" }.joined().utf8)
        var scanned = 0
        let next = bytes.withUnsafeBytes { raw in
            // From the start of a blank screen: the cursor must first reach the bottom row.
            screen.takePlainLines(raw, from: 0, scanned: &scanned)
        }
        #expect(next == 0, "taken from the top row, where lines do not scroll yet")
        screen.feed(Array("a\r\nb\r\n".utf8))
        _ = screen.takeFinalRows()
        let taken = bytes.withUnsafeBytes { raw in screen.takePlainLines(raw, from: 0, scanned: &scanned) }
        #expect(taken == bytes.count)
        let final = screen.takeFinalRows()
        #expect(
            String(decoding: final.bytes, as: UTF8.self) == "a\r\nb\r\n" + lines.prefix(8).map { $0 + "\r\n" }.joined())
        #expect(screen.rows.map(\.text) == ["line 9", "line 10", ""])
    }

    @Test("a row taken whole keeps its bytes only until it is edited: a redraw over it is what it shows")
    func keptBytesFollowEdits() {
        var screen = CommandScreen(columns: 10, rows: 3)
        screen.feed(Array("a\r\nb\r\n".utf8))
        screen.feed(Array((1...6).map { "line \($0)  \r\n" }.joined().utf8))
        #expect(screen.rows.map(\.bytes) == [Array("line 5".utf8), Array("line 6".utf8), []])
        // Up over both rows: one is overwritten in part, the other erased and written in red.
        screen.feed(Array("\u{1B}[2AL\r\n\u{1B}[2K\u{1B}[31mred\u{1B}[0m\r\n".utf8))
        #expect(screen.rows.map(\.bytes) == [Array("Line 5".utf8), Array("\u{1B}[31mred\u{1B}[m".utf8), []])
        screen.finish()
        #expect(
            String(decoding: screen.takeFinalBytes(), as: UTF8.self).hasSuffix(
                "line 4\r\nLine 5\r\n\u{1B}[31mred\u{1B}[m\r\n"))
    }
}
