import ActivityRendering
import ActivityWire
import Testing

@Suite("The live display's taskbar progress")
struct TaskbarFrameTests {
    func harness(_ on: Bool) -> TerminalHarness {
        var configuration = TerminalRenderer.Configuration(
            mode: .tty, size: TerminalSize(columns: 80, rows: 10), displayIsTerminal: true, startTime: 0)
        configuration.taskbarProgress = on
        return TerminalHarness(configuration: configuration)
    }

    func sequences(_ h: TerminalHarness) -> [String] {
        // Each sequence is ESC ] 9 ; 4 ; STATE ; PERCENT ESC \ : the text between its prefix and ESC.
        let marker = Array("\u{1B}]9;4;".utf8)
        let bytes = h.buffer.bytes
        var found: [String] = []
        var index = 0
        while index + marker.count <= bytes.count {
            if Array(bytes[index..<index + marker.count]) == marker {
                let start = index + marker.count
                let end = bytes[start...].firstIndex(of: 0x1B) ?? bytes.count
                found.append(String(decoding: bytes[start..<end], as: UTF8.self))
                index = end
            } else {
                index += 1
            }
        }
        return found
    }

    @Test("the overall fraction, indeterminate, the error state after a failure, cleared at the end")
    func states() {
        let h = harness(true)
        h.send(E.begin("a", "Download", total: 10, at: 0))
        h.send(E.progress("a", 5, at: 0.1))
        h.frame(at: 1, "half")
        h.send(E.begin("b", "Scan", at: 1))
        h.send(E.end("a", at: 1.5))
        h.frame(at: 2, "indeterminate")
        h.send(E.begin("c", "Test", total: 4, at: 2), E.end("c", .failure, error: "1 failed", at: 2.1))
        h.frame(at: 3, "failed")
        h.finish(at: 4)
        #expect(sequences(h) == ["1;50", "3;0", "2;0", "0;0"])
    }

    @Test("re-sent every ten seconds while it does not change (a terminal forgets a stale one)")
    func refresh() {
        let h = harness(true)
        h.send(E.begin("a", "Download", total: 10, at: 0), E.progress("a", 3, at: 0))
        h.frame(at: 1, "first")
        h.frame(at: 5, "unchanged")
        h.frame(at: 11.5, "refreshed")
        #expect(sequences(h) == ["1;30", "1;30"])
    }

    @Test("absent unless asked for (or detected)")
    func off() {
        let h = harness(false)
        h.send(E.begin("a", "Download", total: 10, at: 0))
        h.frame(at: 1, "frame")
        h.finish(at: 2)
        #expect(!h.buffer.text.contains("\u{1B}]9;4;"))
    }
}
