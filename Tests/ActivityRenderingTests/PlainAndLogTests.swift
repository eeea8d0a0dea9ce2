import ActivityRendering
import ActivityWire
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Plain mode and log files (golden)")
struct PlainAndLogTests {
    @Test("plain mode output for a recorded stream")
    func plain() throws {
        let buffer = BufferOutput()
        let terminal = TerminalRenderer(
            output: buffer, configuration: .init(mode: .plain, style: TerminalStyle(unicode: true, color: true)))
        var store = ActivityStore()
        try drive(fixture("build.jsonl"), into: [terminal], store: &store)
        #expect(!buffer.bytes.contains(0x1B), "plain mode wrote an escape byte")
        #expect(buffer.writes.allSatisfy { $0.last == 0x0A && $0.dropLast().allSatisfy { $0 != 0x0A } })
        Golden.check(buffer.text, named: "plain-build.txt")
    }

    @Test("the public renderers on a descriptor write what they write to an output of the package's own")
    func onADescriptor() throws {
        func readAll(_ fd: Int32) -> String {
            var written: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while case let count = read(fd, &chunk, chunk.count), count > 0 { written += chunk[..<count] }
            close(fd)
            return String(decoding: written, as: UTF8.self)
        }
        var display: [Int32] = [0, 0]
        var recording: [Int32] = [0, 0]
        try #require(pipe(&display) == 0 && pipe(&recording) == 0)
        let configuration = TerminalRenderer.Configuration(mode: .plain, color: true, columns: 100, rows: 30)
        let terminal = TerminalRenderer(fileDescriptor: display[1], configuration: configuration)
        terminal.resize(columns: 120, rows: 40)
        var store = ActivityStore()
        try drive(
            fixture("build.jsonl"), into: [terminal, JSONLinesRenderer(fileDescriptor: recording[1])], store: &store)
        close(display[1])
        close(recording[1])
        let buffer = BufferOutput()
        let lines = BufferOutput()
        let expected = TerminalRenderer(
            output: buffer, configuration: .init(mode: .plain, style: TerminalStyle(unicode: true, color: true)))
        var same = ActivityStore()
        try drive(fixture("build.jsonl"), into: [expected, JSONLinesRenderer(output: lines)], store: &same)
        let shown = readAll(display[0])
        #expect(shown == buffer.text)
        #expect(!shown.isEmpty && !shown.utf8.contains(0x1B), "plain mode writes no escape, whatever `color` says")
        #expect(readAll(recording[0]) == lines.text)
    }

    @Test("plain mode in ASCII")
    func plainASCII() throws {
        let buffer = BufferOutput()
        let terminal = TerminalRenderer(
            output: buffer, configuration: .init(mode: .plain, style: TerminalStyle(unicode: false, color: false)))
        var store = ActivityStore()
        try drive(fixture("build.jsonl"), into: [terminal], store: &store)
        #expect(buffer.bytes.allSatisfy { $0 < 0x80 || $0 >= 0xC0 || true })
        let text = buffer.text
        #expect(text.contains("x Build > Compile"))
        #expect(!text.contains("✔") && !text.contains("✖"))
    }

    @Test("plain progress: a line each 10%, no sooner than a second after the last, and every 5 s while it moves")
    func plainThrottle() {
        let buffer = BufferOutput()
        let terminal = TerminalRenderer(output: buffer, configuration: .init(mode: .plain, startTime: 0))
        var store = ActivityStore()
        // 10 seconds, a tenth a second: a line each tenth.
        var events = [E.begin("a", "Copy", total: 1000, at: 0)]
        for step in 1...1000 { events.append(E.progress("a", Double(step), at: Double(step) / 100)) }
        // Done in half a second: its begin and end say it all.
        events.append(E.begin("q", "Quick", total: 100, at: 20))
        for step in 1...100 { events.append(E.progress("q", Double(step), at: 20 + Double(step) / 200)) }
        events.append(E.end("q", at: 20.5))
        // Half done in a fifth of a second, then 60% later on: one line, when it comes.
        events.append(E.begin("s", "Stall", total: 100, at: 30))
        for step in 1...50 { events.append(E.progress("s", Double(step), at: 30 + Double(step) / 250)) }
        events.append(E.progress("s", 60, at: 31.5))
        // 10 seconds of an indeterminate activity: a line every 5 seconds.
        events.append(E.begin("b", "Wait", at: 40))
        for step in 1...100 { events.append(E.progress("b", Double(step), at: 40 + Double(step) * 0.1)) }
        for event in events {
            for update in store.updates(applying: event) { terminal.render(update, in: store) }
        }
        let lines = buffer.text.split(separator: "\n")
        #expect(lines.filter { $0.contains("  Copy") }.count == 10)
        #expect(lines.filter { $0.contains("  Quick") }.isEmpty)
        #expect(lines.filter { $0.contains("  Stall") }.map { $0.contains(" 60%") } == [true])
        #expect(lines.filter { $0.contains("  Wait") }.count == 2)
    }

    @Test("plain progress of an activity that only reports messages shows no amount")
    func plainProgressWithoutAmount() {
        let buffer = BufferOutput()
        let terminal = TerminalRenderer(output: buffer, configuration: .init(mode: .plain, startTime: 0))
        var store = ActivityStore()
        var events = [E.begin("a", "Resolve", at: 0)]
        for step in 1...12 { events.append(E.progress("a", message: "package \(step)", at: Double(step) * 0.5)) }
        events.append(E.begin("b", "Count", at: 10))
        for step in 1...12 { events.append(E.progress("b", Double(step), at: 10 + Double(step) * 0.5)) }
        for event in events {
            for update in store.updates(applying: event) { terminal.render(update, in: store) }
        }
        let lines = buffer.text.split(separator: "\n")
        #expect(lines.filter { $0.contains("  Resolve") }.map { $0.hasSuffix("]   Resolve  package 10") } == [true])
        #expect(lines.contains { $0.contains("  Count  10") }, "\(lines)")
    }

    @Test("plain lines name the path as it is now: after a parent is retitled, and in slots used again")
    func plainPathAfterRetitle() {
        let buffer = BufferOutput()
        let terminal = TerminalRenderer(output: buffer, configuration: .init(mode: .plain, startTime: 0))
        var store = ActivityStore()
        let events = [
            E.begin("p", "Build", at: 0), E.begin("c", "Compile", parent: "p", total: 10, at: 0),
            E.progress("c", 5, at: 1), E.progress("p", title: "Release build", at: 2), E.progress("c", 10, at: 3),
            E.end("c", at: 4), E.end("p", at: 4), E.begin("q", "Test", at: 5),
            E.begin("d", "Unit tests", parent: "q", total: 10, at: 5), E.progress("d", 5, at: 6),
        ]
        for event in events {
            for update in store.updates(applying: event) { terminal.render(update, in: store) }
        }
        let lines = buffer.text.split(separator: "\n").map { $0.drop { $0 != "]" }.dropFirst(2) }
        #expect(lines.contains { $0.hasPrefix("  Build › Compile  50%") })
        #expect(lines.contains { $0.hasPrefix("  Release build › Compile  100%") })
        #expect(lines.contains { $0.hasPrefix("✔ Release build › Compile") })
        #expect(lines.contains { $0.hasPrefix("  Test › Unit tests  50%") })
    }

    @Test("the text log: timestamps, begin, end with duration and status, logs, problems, summary")
    func textLog() throws {
        let buffer = BufferOutput()
        let log = LogFileRenderer(output: buffer, format: .text, clock: { 1_764_417_650 })
        var store = ActivityStore()
        try drive(fixture("build.jsonl"), into: [log], store: &store)
        #expect(buffer.writes.allSatisfy { $0.last == 0x0A && $0.dropLast().allSatisfy { $0 != 0x0A && $0 != 0x1B } })
        Golden.check(buffer.text, named: "log-build.txt")
    }

    @Test("the JSON-lines log is the normalized stream and replays to the same result")
    func jsonLog() throws {
        let buffer = BufferOutput()
        let log = LogFileRenderer(output: buffer, format: .jsonl)
        var store = ActivityStore()
        try drive(fixture("build.jsonl"), into: [log], store: &store)
        Golden.check(buffer.text, named: "log-build.jsonl")

        // Every line decodes, carries a timestamp, and replaying gives the same outcome.
        let decoder = ActivityEventDecoder()
        var replay = ActivityStore()
        var validator = StreamValidator()
        for (index, line) in buffer.text.split(separator: "\n").enumerated() {
            let event = try #require(decoder.decode(String(line), line: index + 1).event)
            #expect(event.timestamp != nil)
            #expect(validator.check(event, line: index + 1).isEmpty)
            _ = replay.updates(applying: event)
        }
        #expect(validator.finish(atLine: 0).isEmpty, "the normalized stream ends everything it begins")
        #expect(replay.summary.ended == store.summary.ended)
        #expect(replay.summary.begun == store.summary.begun)
        #expect(replay.summary.diagnosticCount == 0)
    }

    @Test("a log file is appended to, one whole line per write")
    func logFile() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/run.log"
            writeFile(path, "earlier line\n")
            do {
                let log = try LogFileRenderer(path: path, format: .text, clock: { 0 })
                var store = ActivityStore()
                for update in store.updates(applying: E.begin("a", "A", at: 0)) { log.render(update, in: store) }
                for update in store.updates(applying: E.end("a", at: 1)) { log.render(update, in: store) }
                // Lines are on disk before finish: nothing is lost if the process dies here.
                #expect(readFile(path)?.split(separator: "\n").count == 3)
                log.finish(store, now: 1)
            }
            let lines = readFile(path)?.split(separator: "\n") ?? []
            #expect(lines.first == "earlier line")
            #expect(lines.count == 4)
            #expect(lines[2].contains("end id=a title=A status=success duration=1.000s"))
        }
    }

    @Test("a log file that cannot be opened is a clear error")
    func logFileError() {
        #expect(throws: RenderError.self) {
            _ = try LogFileRenderer(path: "/nonexistent-dir/x/run.log", format: .text)
        }
        do {
            _ = try LogFileRenderer(path: "/tmp", format: .text)
            Issue.record("a directory was accepted")
        } catch {
            #expect(error.message.contains("directory"))
        }
    }

    @Test("logfmt quoting escapes controls and quotes")
    func quoting() {
        let buffer = BufferOutput()
        let log = LogFileRenderer(output: buffer, format: .text, clock: { 0 })
        var store = ActivityStore()
        let hostile = "a \"b\" \\ c\u{1B}[2J\nd\u{9B}e"
        for update in store.updates(applying: E.begin("a", hostile, at: 0)) { log.render(update, in: store) }
        #expect(buffer.text == "1970-01-01T00:00:00.000Z begin id=a title=\"a \\\"b\\\" \\\\ c\\x1b[2J\\nd\\x9be\"\n")
    }
}
