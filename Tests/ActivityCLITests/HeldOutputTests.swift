import Testing

@testable import ActivityCLI

@Suite("The overlay's held output")
struct HeldOutputTests {
    @Test("the overlay holds the newest output in bounded memory, in order")
    func heldOutput() {
        var held = HeldOutput(limit: 1000)
        for index in 0..<800_000 { held.append(Array("\(index)\n".utf8)) }
        #expect(held.byteCount <= 1000)
        let text = String(decoding: held.takeAll(), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.last == "799999")
        #expect(lines.count > 100)
        #expect(zip(lines, lines.dropFirst()).allSatisfy { Int($0)! + 1 == Int($1)! })
        #expect(held.count == 0 && held.byteCount == 0)
    }
}
