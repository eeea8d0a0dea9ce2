import Testing

@testable import ActivityTerminal

/// Whatever a command writes, the screen stays whole: hostile and random byte streams, on
/// screens down to one cell, resized on the way.
@Suite("CommandScreen: any bytes leave a consistent screen")
struct CommandScreenRobustnessTests {
    /// A reproducible stream of fragments that terminals find hard: control sequences with odd
    /// and huge parameters, wide characters, marks, cut UTF-8, mode changes, random bytes.
    static func stream(seed: UInt64, count: Int) -> [UInt8] {
        let pieces = [
            "\u{1B}[", "\u{1B}[?", "\u{1B}", "\u{1B}7", "\u{1B}8", "\u{1B}M", "\u{1B}D", "\u{1B}E", "\u{1B}c",
            "\u{1B}(0",
            "\u{1B}(B", "\u{1B}#8", "\u{1B}H", "\u{1B}]2;t\u{07}", "1049h", "1049l", "47h", "6h", "6l", "7l", "7h",
            "r", "2;5r", "99999;0r", "H", "99;99H", "A", "5B", "C", "999D", "@", "3P", "L", "2M", "S", "3T", "X",
            "J", "2J", "1J", "K", "1K", "2K", "b", "12b", "g", "3g", "I", "Z", "4h", "4l", "m", "1;38;2;1;2;3m",
            "48;5;300m", "s", "u", "!p", "日", "本", "😀", "e\u{301}", "\u{200D}", "\u{FE0F}", "🇫", "\r", "\n", "\t",
            "\u{08}", "\u{0E}", "\u{0F}", "abc", "wrap this text", ";", "0", "999999",
        ].map { Array($0.utf8) }
        var state = seed
        var bytes: [UInt8] = []
        while bytes.count < count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let pick = Int(truncatingIfNeeded: state >> 33)
            if pick % 7 == 0 {
                bytes.append(UInt8(truncatingIfNeeded: state >> 40))
            } else {
                bytes += pieces[pick % pieces.count]
            }
        }
        return bytes
    }

    static func checkConsistent(_ screen: CommandScreen, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(screen.rows.count == screen.rowCount, sourceLocation: sourceLocation)
        #expect(screen.cursor.row >= 0 && screen.cursor.row < screen.rowCount, sourceLocation: sourceLocation)
        #expect(screen.cursor.column >= 0 && screen.cursor.column <= screen.columns, sourceLocation: sourceLocation)
        #expect(
            screen.scrollRegion.top >= 0 && screen.scrollRegion.top < screen.scrollRegion.bottom
                || screen.rowCount == 1, sourceLocation: sourceLocation)
        for row in screen.rows {
            #expect(row.cells.count == screen.columns, sourceLocation: sourceLocation)
            for (column, cell) in row.cells.enumerated() {
                if cell.width == 2 {
                    #expect(
                        column + 1 < screen.columns && row.cells[column + 1].width == 0, sourceLocation: sourceLocation)
                } else if cell.width == 0 {
                    #expect(column > 0 && row.cells[column - 1].width == 2, sourceLocation: sourceLocation)
                }
            }
            for cell in row.cells[row.extent...] { #expect(cell.isBlank, sourceLocation: sourceLocation) }
        }
    }

    @Test(
        "random streams on screens from 1 × 1 up, resized between reads", arguments: [(1, 1), (2, 3), (7, 4), (80, 24)])
    func random(columns: Int, rows: Int) {
        for seed in UInt64(1)...4 {
            var screen = CommandScreen(columns: columns, rows: rows)
            let bytes = Self.stream(seed: seed, count: 20_000)
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + 997)
                screen.feed(bytes[offset..<end])
                Self.checkConsistent(screen)
                if offset % 3 == 0 {
                    screen.resize(columns: max(1, columns + Int(seed) - 2), rows: max(1, rows + 1 - Int(seed % 3)))
                    Self.checkConsistent(screen)
                }
                _ = screen.takeFinalBytes()
                offset = end
            }
            screen.finish()
            Self.checkConsistent(screen)
        }
    }
}
