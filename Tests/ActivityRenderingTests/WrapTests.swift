import ActivityWire
import Testing

@testable import ActivityRendering

@Suite("Permanent lines wrap at word boundaries")
struct WrapTests {
    func rows(_ line: StyledLine, _ width: Int) -> [String] {
        line.wrapped(to: width, indent: 2).map { row in row.spans.map(\.text).joined() }
    }

    @Test("at 50 columns a failure's path and error break between words, with a hanging indent")
    func words() {
        var line = StyledLine("✖ ")
        line.append("Build › Download assets", .title)
        line.append("  3.2s", .detail)
        line.append("  assets.tar.zst: connection reset, see https://ci.example/build/12345/log for more", .message)
        let wrapped = rows(line, 50)
        #expect(wrapped.count > 1)
        let words = Set(line.spans.map(\.text).joined().split(separator: " ").map(String.init))
        for row in wrapped {
            #expect(row.count <= 50, "\(row)")
            for word in row.split(separator: " ") {
                #expect(words.contains(String(word)), "cut inside a word: \(row)")
            }
        }
        #expect(wrapped.dropFirst().allSatisfy { $0.hasPrefix("  ") && !$0.hasPrefix("   ") })
        #expect(
            wrapped.joined(separator: " ").split(separator: " ").joined(separator: " ")
                == line.spans.map(\.text).joined().split(separator: " ").joined(separator: " "))
    }

    @Test("a word longer than a row is cut, and nothing is lost")
    func longWord() {
        let url = String(repeating: "x", count: 120)
        let wrapped = rows(StyledLine("error: " + url), 50)
        #expect(wrapped.allSatisfy { $0.count <= 50 })
        #expect(wrapped.joined().filter { $0 == "x" }.count == 120)
    }

    /// Wraps as the renderer did before it read simple text by scalars: every span segmented
    /// into grapheme clusters, each appended on its own. The reference the renderer must match.
    static func referenceRows(_ line: StyledLine, width: Int, indent: Int) -> [[StyledLine.Span]] {
        guard line.width > width, width > indent + 4 else { return [line.spans] }
        var cells: [(character: Character, role: ColorRole?, width: Int)] = []
        for span in line.spans {
            for character in span.text { cells.append((character, span.role, DisplayWidth.of(character))) }
        }
        var rows: [[StyledLine.Span]] = []
        var start = 0
        var first = true
        while start < cells.count {
            let room = first ? width : width - indent
            var used = 0
            var end = start
            var lastBreak: Int?
            while end < cells.count, used + cells[end].width <= room {
                if cells[end].character == " " || cells[end].width == 2 { lastBreak = end }
                used += cells[end].width
                end += 1
            }
            if end < cells.count, cells[end].character == " " || cells[end].width == 2 { lastBreak = end }
            var next = end
            if end < cells.count, let position = lastBreak, position > start {
                end = position
                next = position
            }
            while end > start, cells[end - 1].character == " " { end -= 1 }
            while next < cells.count, cells[next].character == " " { next += 1 }
            var row = StyledLine(first ? "" : String(repeating: " ", count: indent))
            var index = start
            while index < end {
                var text = ""
                let role = cells[index].role
                while index < end, cells[index].role == role {
                    text.append(cells[index].character)
                    index += 1
                }
                row.append(text, role)
            }
            rows.append(row.spans)
            if next == start { next = start + 1 }
            start = next
            first = false
        }
        return rows
    }

    static func described(_ span: StyledLine.Span) -> String {
        "\(span.role.map { "\($0)" } ?? "-"):\(span.text)"
    }

    @Test(
        "rows are the same whether a span is read by scalars or by clusters",
        arguments: [
            [
                "warning: Build swift-activity › Compile target 0 › Compiling Fichier100.swift: ",
                "variable 'x' was never used",
            ],
            ["✖ ", "Build › Compilé", "  e\u{301}tape  ", "passe 2 — «optimisation» ✓ then more words to wrap"],
            ["ビルド › ", "構築に失敗しました。もう一度試してください", " 👍🏽 done 🇫🇷 ok and the rest of it"],
            ["a", "b", "c d e f g h i j k l m n o p q r s t u v w x y z", "0123456789012345678901234567890123456789"],
            ["tab\there and a café with a combining mark at a span's end e", "\u{301} starts the next one"],
        ]
    )
    func scalarsAndClusters(texts: [String]) {
        var line = StyledLine()
        let roles: [ColorRole?] = [.title, .message, nil, .detail]
        for (index, text) in texts.enumerated() { line.append(text, roles[index % roles.count]) }
        for width in [10, 17, 24, 33, 50] {
            let rows = line.wrapped(to: width, indent: 2).map { $0.spans.map(Self.described) }
            let reference = Self.referenceRows(line, width: width, indent: 2).map { $0.map(Self.described) }
            #expect(rows == reference, "at \(width) columns")
        }
    }
}
