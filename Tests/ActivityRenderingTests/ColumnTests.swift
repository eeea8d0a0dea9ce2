import ActivityRendering
import ActivityWire
import Testing

@Suite("Terminal renderer, columns that line up")
struct ColumnTests {
    /// The column where each live row's bar starts, for the rows that have one.
    func barColumns(_ harness: TerminalHarness) -> [Int] {
        harness.screen.grid.compactMap { row in row.firstIndex { $0 == "█" || $0 == "░" || $0 == "▏" } }
    }

    /// The column where `text` starts in each row that has it.
    func columns(of text: String, in harness: TerminalHarness) -> [Int] {
        let needle = Array(text)
        return harness.screen.grid.compactMap { row in
            let line = Array(row.joined())
            guard line.count >= needle.count else { return nil }
            return (0...(line.count - needle.count)).first { Array(line[$0..<$0 + needle.count]) == needle }
        }
    }

    @Test("task 9 and task 10: bars, percentages and counts start at one column")
    func tenRows() {
        let h = TerminalHarness(columns: 80, rows: 16)
        for index in 1...10 { h.send(E.begin("t\(index)", "task \(index)", total: 100, at: 0)) }
        for index in 1...10 { h.send(E.progress("t\(index)", Double(index * 9), at: 1)) }
        h.frame(at: 1.5, "ten tasks")
        #expect(Set(barColumns(h)).count == 1)
        #expect(barColumns(h).count == 10)
        #expect(Set(columns(of: "%", in: h)).count == 1)
        h.finish(at: 2)
        Golden.check(h.transcript, named: "columns.txt")
    }

    @Test("the demo's rows: a bar, an indeterminate step, a nested child, times in one column")
    func mixedRows() {
        let h = TerminalHarness(columns: 80, rows: 10)
        h.send(
            E.begin("dl", "Download toolchain", total: 8_388_608, unit: "bytes", at: 0),
            E.begin("cc", "Compile", total: 40, unit: "files", at: 0),
            E.begin("cc.1", "main.swift", parent: "cc", at: 0.5),
            E.begin("lint", "Lint", at: 0.5),
            E.progress("dl", 2_097_152, at: 1), E.progress("cc", 10, at: 1)
        )
        h.frame(at: 2, "mixed")
        #expect(Set(barColumns(h)).count == 1)
        // Every elapsed time (the last part of each activity row) starts at one column.
        let times = h.screen.grid.dropFirst().compactMap { row -> Int? in
            let line = row.joined().trimmingTrailingSpaces()
            guard line.hasSuffix("s"), let space = line.lastIndex(of: " ") else { return nil }
            return line.distance(from: line.startIndex, to: space) + 1
        }
        #expect(times.count == 4)
        #expect(Set(times).count == 1)
        // The tree stays visible: the child is indented under its parent.
        #expect(columns(of: "main.swift", in: h) == [4])
        h.finish(at: 3)
        Golden.check(h.transcript, named: "columns-mixed.txt")
    }

    @Test("a title too long for the terminal is cut with … at the shared width; the others are padded to it")
    func longTitle() {
        let h = TerminalHarness(columns: 50, rows: 6)
        h.send(
            E.begin("a", "An unusually long title that would push every bar to the edge", total: 10, at: 0),
            E.begin("b", "Short", total: 10, at: 0), E.progress("a", 3, at: 1), E.progress("b", 7, at: 1)
        )
        h.frame(at: 1.5, "long title")
        #expect(Set(barColumns(h)).count == 1)
        #expect(h.screen.grid.contains { $0.joined().contains("…") })
        for row in h.screen.grid { #expect(row.joined().trimmingTrailingSpaces().count < 50) }
        h.finish(at: 2)
        Golden.check(h.transcript, named: "columns-long-title.txt")
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
