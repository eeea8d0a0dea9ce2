import ActivityRendering
import ActivityWire
import Testing

@Suite("A hostile stream leaves the terminal sane and memory bounded")
struct HostileStreamTests {
    func hostileStream() -> [UInt8] {
        var text = ""
        let titles = [
            "\u{1B}[2J\u{1B}[H cleared", "\u{1B}]0;pwned\u{07}title", "ok\r✔ Deploy  0.1s", "\u{9B}5Aup",
            "bell\u{07}\u{7F}\u{00}", "\u{1B}[?25h\u{1B}[?1049h alt screen", "\u{1B}P+q\u{1B}\\ dcs",
        ]
        for (index, title) in titles.enumerated() {
            var encoder = ActivityEventEncoder()
            encoder.maxLineBytes = 4096
            let begin = ActivityEvent.begin(
                .init(id: ActivityID("h\(index)")!, title: title, message: title, timestamp: Double(index)))
            text += String(decoding: encoder.encode(begin), as: UTF8.self)
            text += "raw text line with \(title)\n"
            text +=
                #"{"v":1,"type":"log","ts":\#(index),"message":"\u001b[31mred\u001b]8;;x\u0007","level":"error"}"#
                + "\n"
        }
        text += String(repeating: "A", count: 200_000) + "\n"
        text += #"{"v":1,"type":"begin","id":"long","title":""# + String(repeating: "x", count: 100_000) + "\"}\n"
        text += "{\"v\":1,\"type\":\"begin\",\"id\":\"bad id!\",\"title\":\"x\"}\n"
        text += "{\"v\":9,\"type\":\"begin\",\"id\":\"future\",\"title\":\"x\"}\n"
        text += "{\"v\":1,\"type\":\"progress\",\"id\":\"h0\",\"completed\":1e400}\n"
        text += "[1,2,3]\n\n   \n{\"v\":1\n"
        var bytes = Array(text.utf8)
        bytes += [0xFF, 0xFE, 0x1B, 0x5B, 0x32, 0x4A, 0xC3, 0x28, 0x0A]
        bytes += Array((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        bytes.append(0x0A)
        for index in 0..<100_000 {
            bytes += Array(#"{"v":1,"type":"begin","ts":10,"id":"flood.\#(index)","title":"\#(index)"}"#.utf8)
            bytes.append(0x0A)
        }
        return bytes
    }

    @Test("escapes, overlong lines, garbage and 100,000 begins without end")
    func hostile() throws {
        let h = TerminalHarness(
            columns: 80, rows: 24, color: true, limits: .init(maxOpen: 10_000, retainedFinished: 100))
        let renderer = h.renderer
        var reader = EventStreamReader(source: BytesSource(hostileStream(), chunkSize: 4093))
        var lines = 0
        try reader.forEach { item in
            guard item.isLineStart else { return }
            lines += 1
            switch item.decoded {
            case .event(let event): h.send(event)
            case .text: h.passthrough(String(decoding: item.bytes, as: UTF8.self))
            case .invalid(let problem), .ignored(let problem?):
                h.store.count(problem)
                renderer.report(problem, in: h.store)
            default: break
            }
            if lines % 5000 == 0 { h.frame(at: 10 + Double(lines) / 1e4, "frame") }
        }
        h.frame(at: 30, "last")
        h.finish(at: 31)

        #expect(h.frameProblems.isEmpty)
        #expect(h.screen.unexpected.isEmpty, "\(h.screen.unexpected.prefix(5))")
        #expect(h.screen.cursorVisible)
        #expect(!h.screen.synchronized)
        #expect(h.store.openCount == 0)
        #expect(h.store.retainedCount <= 100)
        #expect(h.store.summary.dropped == 100_000 + 7 - 10_000)
        let output = h.buffer.text
        for forbidden in ["\u{1B}]", "\u{1B}[2J", "\u{1B}[H", "\u{1B}[?1049h", "\u{1B}P", "\u{9B}", "\u{07}"] {
            #expect(!output.contains(forbidden), "\(forbidden.debugDescription) reached the terminal")
        }
        // A forged status line never starts a row: the carriage return became a space.
        let rows = h.screen.scrollback + h.screen.grid.map { h.screen.line($0) }
        #expect(!rows.contains { $0.hasPrefix("✔ Deploy") })
        // Every problem kind is shown once, not once per line.
        let warnings = rows.filter { $0.hasPrefix("warning: input line") }
        #expect(Set(warnings.map { $0.split(separator: "[").last ?? "" }).count == warnings.count)
    }
}
