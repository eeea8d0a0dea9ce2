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
}
