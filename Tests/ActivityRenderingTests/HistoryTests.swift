import ActivityWire
import Foundation
import TestSupport
import Testing

@testable import ActivityRendering

@Suite("History: estimates from past runs")
struct HistoryTests {
    @Test("the usual duration is the median of the last five runs")
    func estimate() {
        var history = ActivityHistory()
        let path = ["Build", "Compile"]
        for (index, duration) in [100.0, 400, 110, 90, 105, 120].enumerated() {
            history.record(path: path, duration: duration, completed: 0, total: nil, endedAt: Double(index))
        }
        let entry = try! #require(history.entry(for: path))
        #expect(entry.durations == [400, 110, 90, 105, 120])
        #expect(entry.usualDuration == 110)
        #expect(history.remaining(for: path, elapsed: 30) == 80)
        #expect(history.remaining(for: path, elapsed: 200) == nil)
        #expect(history.remaining(for: ["Build"], elapsed: 1) == nil)
        var two = ActivityHistory()
        two.record(path: ["x"], duration: 10, completed: 0, total: nil, endedAt: 0)
        two.record(path: ["x"], duration: 100, completed: 0, total: nil, endedAt: 1)
        #expect(two.entry(for: ["x"])?.usualDuration == 10)
    }

    @Test(
        "slower than usual: at least 1.5 times as long and at least 2 s longer",
        arguments: [
            (10.0, 15.0, true), (10, 14.9, false), (2, 3.9, false), (2, 4, true), (0.2, 0.9, false), (60, 89, false),
            (60, 90, true), (0, 2, true),
        ])
    func slower(_ usual: Double, _ duration: Double, _ expected: Bool) {
        #expect(ActivityHistory.isSlower(duration, thanUsual: usual) == expected)
    }

    @Test("merging keeps both sides' runs, the newer last, and evicts the paths that ran longest ago")
    func mergeAndEvict() {
        var old = ActivityHistory()
        old.record(path: ["a"], duration: 1, completed: 1, total: 3, endedAt: 10)
        old.record(path: ["b"], duration: 2, completed: 0, total: nil, endedAt: 5)
        var new = ActivityHistory()
        new.record(path: ["a"], duration: 3, completed: 3, total: 3, endedAt: 20)
        new.record(path: ["c"], duration: 4, completed: 0, total: nil, endedAt: 30)
        old.merge(new)
        #expect(old.entry(for: ["a"])?.durations == [1, 3])
        #expect(old.entry(for: ["a"])?.completed == 3)
        #expect(old.entries.count == 3)
        old.evict(keeping: 2)
        #expect(old.entry(for: ["b"]) == nil)
        #expect(old.entry(for: ["c"]) != nil)
    }

    @Test("the text format reads back what it wrote, escapes included; bad lines are dropped with one problem")
    func textFormat() throws {
        var history = ActivityHistory()
        history.record(path: ["Tab\there", "Back\\slash", "›"], duration: 1.2345, completed: 7, total: 9, endedAt: 1)
        history.record(path: ["plain"], duration: 130, completed: 0, total: nil, endedAt: 2)
        let text = history.encoded()
        #expect(String(decoding: text, as: UTF8.self).hasPrefix("activity-history 1\n"))
        let decoded = try ActivityHistory.decode(text)
        #expect(decoded.problem == nil)
        #expect(decoded.history.entry(for: ["Tab\there", "Back\\slash", "›"])?.durations == [1.235])
        #expect(decoded.history.entry(for: ["plain"])?.total == nil)
        // Numbers in every form they are written in: integers, decimals, more digits than a
        // double holds exactly, exponents.
        var numbers = ActivityHistory()
        numbers.record(path: ["a"], duration: 0.001, completed: 1e20, total: 123_456_789_012.345, endedAt: 1e300)
        numbers.record(path: ["b"], duration: 2, completed: 9_500_000_000_000.25, total: 1e15 + 1, endedAt: 0.5)
        numbers.record(
            path: ["a"], duration: 1_234_567_890_123.456, completed: 1e20, total: 3, endedAt: 1_764_417_600.123)
        let readBack = try ActivityHistory.decode(numbers.encoded())
        #expect(readBack.problem == nil)
        #expect(readBack.history == numbers)
        let broken = Array("activity-history 1\n1\t0\t-\t5\tok\ngarbage\n1\t0\t-\tx\tbad\n".utf8)
        let partial = try ActivityHistory.decode(broken)
        #expect(partial.history.entries.count == 1)
        #expect(partial.problem == "line 3 is not a history entry")
        #expect(throws: ActivityHistory.TextProblem.notHistory) { try ActivityHistory.decode(Array("hello\n".utf8)) }
        #expect(throws: ActivityHistory.TextProblem.newerVersion("2")) {
            try ActivityHistory.decode(Array("activity-history 2\n".utf8))
        }
    }

    @Test("numbers are written as Swift writes them rounded to thousandths, at every magnitude and sign")
    func numberText() {
        var values: [Double] = [0, -0.0, 0.0004, 0.0005, -0.0005, 0.001, 0.01, 0.1, 0.5, 1, 42, 130.5, 1.2345, 99.9995]
        values += [1_764_417_600.123, 1_764_417_600.000499, 999_999_999_999.999, 1e12, 1e12 + 0.5, 9e15, 1e20, 1e300]
        // Durations, counts and times as they come: pseudo-random, reproducible.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let scale = Double(state >> 60)  // 0...15
            let mantissa = Double(state >> 11 & 0xF_FFFF) / Double(0x10_0000)
            let value = mantissa * pow(10, scale - 3)
            values += [value, -value]
        }
        for value in values {
            var text: [UInt8] = []
            ActivityHistory.appendNumber(value, to: &text)
            #expect(String(decoding: text, as: UTF8.self) == ActivityHistory.number(value), "\(value)")
        }
    }

    @Test("files: a corrupt one warns once and is cleaned; another kind of file is never written over")
    func files() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url.appendingPathComponent("history")
        let path = folder.path + "/deep/er/history"
        var runs = ActivityHistory()
        runs.record(path: ["a"], duration: 3, completed: 0, total: nil, endedAt: 1)
        #expect(HistoryFile.load(path).warning == nil)
        #expect(HistoryFile.save(runs, to: path) == nil)
        #expect(HistoryFile.load(path).history.entry(for: ["a"])?.durations == [3])

        try Data("activity-history 1\n\u{0}\u{1}binary junk\n".utf8).write(to: URL(fileURLWithPath: path))
        let corrupt = HistoryFile.load(path)
        #expect(corrupt.warning?.contains("line 2 is not a history entry") == true)
        #expect(corrupt.writable)
        #expect(HistoryFile.save(runs, to: path) == nil)
        #expect(HistoryFile.load(path).warning == nil)

        let other = folder.path + "/notes.txt"
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: other))
        let foreign = HistoryFile.load(other)
        #expect(foreign.warning?.contains("not a history file") == true)
        #expect(!foreign.writable)
        #expect(HistoryFile.save(runs, to: other)?.contains("not written") == true)
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "my notes\n")

        // A directory that cannot be made: a file stands where it would go.
        let blocked = other + "/sub/history"
        #expect(HistoryFile.save(runs, to: blocked)?.contains("cannot create") == true)
    }

    @Test("an indeterminate activity that ran before shows 'usually' and an ETA; the summary names slower steps")
    func frames() {
        var history = ActivityHistory()
        history.record(path: ["Build", "Compile"], duration: 130, completed: 0, total: nil, endedAt: 0)
        history.record(path: ["Build", "Link"], duration: 4, completed: 0, total: nil, endedAt: 0)
        history.record(path: ["Build"], duration: 140, completed: 0, total: nil, endedAt: 0)
        var configuration = TerminalRenderer.Configuration(
            mode: .tty, size: TerminalSize(columns: 80, rows: 10), displayIsTerminal: true, startTime: 0)
        configuration.history = history
        let h = TerminalHarness(configuration: configuration)
        h.send(E.begin("b", "Build", at: 0), E.begin("c", "Compile", parent: "b", at: 0))
        h.frame(at: 10, "ten seconds in")
        h.frame(at: 135, "past the usual time")
        h.send(E.end("c", at: 136), E.begin("l", "Link", parent: "b", at: 136), E.end("l", at: 145))
        h.send(E.end("b", at: 146))
        h.finish(at: 146)
        let screen = h.screen.grid.map { $0.joined() }.joined(separator: "\n")
        #expect(screen.contains("slower than usual:"))
        #expect(screen.contains("Build › Link  9.0s, usually 4.0s"))
        #expect(!screen.contains("Build  146"))
        Golden.check(h.transcript, named: "history-usually.txt")
    }

    @Test("an instant step's usual duration (below the 0.1 s the display shows) annotates neither line nor row")
    func instantStepsUnannotated() {
        var history = ActivityHistory()
        history.record(path: ["Compile"], duration: 0.01, completed: 0, total: nil, endedAt: 0)
        history.record(path: ["Link"], duration: 0.05, completed: 0, total: nil, endedAt: 0)
        for mode in [TerminalRenderer.Mode.plain, .tty] {
            var configuration = TerminalRenderer.Configuration(
                mode: mode, size: TerminalSize(columns: 80, rows: 10), displayIsTerminal: true, startTime: 0)
            configuration.history = history
            let h = TerminalHarness(configuration: configuration)
            h.send(E.begin("c", "Compile", at: 0))
            h.frame(at: 0.01, "compiling")
            h.send(E.end("c", at: 0.02), E.begin("l", "Link", at: 0.02))
            h.frame(at: 0.03, "linking")
            // Over a second: plain mode writes Link's begin line (a shorter step has its end's alone).
            h.send(E.end("l", at: 1.04))
            h.finish(at: 1.04)
            #expect(!h.buffer.text.contains("usually 0.0s"), "\(mode): \(h.buffer.text.debugDescription)")
            // 0.05 s is shown as 0.1s: worth its word.
            #expect(h.buffer.text.contains("usually 0.1s"), "\(mode): \(h.buffer.text.debugDescription)")
        }
    }

    @Test("log and JSON lines show no estimates: the file is not read at the start, nor created without a success")
    func displaysWithoutEstimates() throws {
        try withTemporaryDirectory { directory in
            // Not a history: reading it gives a warning, so a read shows on the log display.
            let notes = directory + "/notes.txt"
            writeFile(notes, "my notes\n")
            for mode in [RenderMode.log, .jsonl] {
                let display = DisplayFile(directory: directory, name: "display-\(mode)")
                var options = RenderOptions(mode: mode, displayFileDescriptor: display.descriptor, environment: [:])
                options.historyFile = notes
                let session = try RenderSession(options: options)
                session.handle(E.begin("a", "Fetch", at: 1))
                session.handle(E.end("a", .failure, at: 2))
                session.finish()
                #expect(!display.text.contains("history"), "\(mode): \(display.text)")
                #expect(readFile(notes) == "my notes\n")

                let missing = directory + "/state-\(mode)/history"
                options.historyFile = missing
                let abandoned = try RenderSession(options: options)
                abandoned.handle(E.begin("b", "Build", at: 1))
                abandoned.finish()
                #expect(!FileManager.default.fileExists(atPath: directory + "/state-\(mode)"))
            }
        }
    }

    @Test("log mode still records a success, and warns at the end about a file that is not a history")
    func logModeRecords() throws {
        try withTemporaryDirectory { directory in
            try withLoggingSession(in: directory) { session in
                session.handle(E.begin("a", "Fetch", at: 1))
                session.handle(E.end("a", at: 4))
                session.finish()
            }
            #expect(HistoryFile.load(directory + "/history").history.entry(for: ["Fetch"])?.durations == [3])

            let notes = directory + "/notes.txt"
            writeFile(notes, "my notes\n")
            let other = DisplayFile(directory: directory, name: "other")
            var options = RenderOptions(mode: .log, displayFileDescriptor: other.descriptor, environment: [:])
            options.historyFile = notes
            let second = try RenderSession(options: options)
            second.handle(E.begin("a", "Fetch", at: 1))
            second.handle(E.end("a", at: 4))
            second.finish()
            #expect(other.text.contains("not a history file"))
            #expect(readFile(notes) == "my notes\n")
        }
    }

    @Test("a run is recorded under the titles its path has when it ends: a parent retitled on the way counts")
    func recordedUnderCurrentTitles() throws {
        try withTemporaryDirectory { directory in
            try withLoggingSession(in: directory) { session in
                session.handle(E.begin("b", "Build", at: 0))
                session.handle(E.begin("c", "Compile", parent: "b", at: 0))
                session.handle(E.begin("f", "main.c", parent: "c", at: 0))
                session.handle(E.end("f", at: 1))
                session.handle(E.progress("b", title: "Release build", at: 2))
                session.handle(E.begin("g", "util.c", parent: "c", at: 2))
                session.handle(E.end("g", at: 4))
                session.handle(E.progress("g", title: "renamed", at: 5))
                session.handle(E.end("c", at: 6))
                session.handle(E.end("b", at: 7))
                session.finish()
            }
            let history = HistoryFile.load(directory + "/history").history
            #expect(history.entry(for: ["Build", "Compile", "main.c"])?.durations == [1])
            #expect(history.entry(for: ["Release build", "Compile", "util.c"])?.durations == [2])
            #expect(history.entry(for: ["Release build", "Compile"])?.durations == [6])
            #expect(history.entry(for: ["Release build"])?.durations == [7])
            #expect(history.entries.count == 4)
        }
    }

    /// Runs `body` with a session in log mode that keeps its history in `directory`; the file
    /// it logs to stays open until `body` returns.
    @Test("past the paths a session notes, only those already noted are updated")
    func sessionCap() throws {
        try withTemporaryDirectory { directory in
            try withLoggingSession(in: directory) { session in
                session.handle(E.begin("root", "Build", at: 0))
                for index in 0..<ActivityHistory.maxEntries {
                    session.handle(E.begin("f\(index)", "File \(index)", parent: "root", at: 1))
                    session.handle(E.end("f\(index)", at: 2))
                }
                // Full: a new path is not noted; a noted one, under the same parent, is updated,
                // and so is one whose title another noted path ends with.
                session.handle(E.begin("new", "File new", parent: "root", at: 3))
                session.handle(E.end("new", at: 4))
                session.handle(E.begin("again", "File 7", parent: "root", at: 5))
                session.handle(E.end("again", at: 9))
                session.handle(E.begin("other", "Other", at: 5))
                session.handle(E.begin("same-title", "File 8", parent: "other", at: 5))
                session.handle(E.end("same-title", at: 6))
                session.handle(E.end("other", at: 7))
                session.handle(E.end("root", at: 10))
                session.finish()
            }
            let history = HistoryFile.load(directory + "/history").history
            #expect(history.entries.count == ActivityHistory.maxEntries)
            #expect(history.entry(for: ["Build", "File new"]) == nil)
            #expect(history.entry(for: ["Other", "File 8"]) == nil)
            #expect(history.entry(for: ["Build", "File 7"])?.durations == [1, 4])
            #expect(history.entry(for: ["Build", "File 8"])?.durations == [1])
        }
    }

    private func withLoggingSession(in directory: String, _ body: (RenderSession) throws -> Void) throws {
        let display = DisplayFile(directory: directory)
        var options = RenderOptions(mode: .log, displayFileDescriptor: display.descriptor, environment: [:])
        options.historyFile = directory + "/history"
        let session = try RenderSession(options: options)
        try withExtendedLifetime(display) { try body(session) }
    }

    @Test("an empty file is an empty history: no warning, and written at the end")
    func emptyFile() {
        withTemporaryDirectory { directory in
            let path = directory + "/history"
            writeFile(path, "")
            let loaded = HistoryFile.load(path)
            #expect(loaded.warning == nil && loaded.writable && loaded.history.isEmpty)
            var runs = ActivityHistory()
            runs.record(path: ["Fetch"], duration: 3, completed: 0, total: nil, endedAt: 4)
            #expect(HistoryFile.save(runs, to: path) == nil)
            #expect(HistoryFile.load(path).history.entry(for: ["Fetch"])?.durations == [3])
        }
    }
}
