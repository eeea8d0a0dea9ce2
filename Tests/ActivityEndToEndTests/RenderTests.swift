import Foundation
import TestSupport
import Testing

/// The closing summary line gives the time up to now, and the fixtures are from the past: it is
/// checked on its own, and the rest against the golden file.
func withoutSummaryTime(_ text: String) -> String {
    text.replacingOccurrences(
        of: #"\[ *[0-9.]+[smhd]+\] (\d+ activities in) [0-9.]+[smhd]+"#, with: "[TIME] $1 TIME",
        options: .regularExpression
    )
    .replacingOccurrences(of: #"(\d+ activities in) [0-9.]+[smhd]+"#, with: "$1 TIME", options: .regularExpression)
}

@Suite("activity render")
struct RenderTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/build.jsonl")

    @Test("lines that are not JSON pass through unchanged, even when they start with a brace or are not UTF-8")
    func notJSONPassesThrough() throws {
        let text = Data("{garbage\n{not json\n[1,2]\n".utf8) + Data([0x7B, 0x62, 0xFF, 0x0A, 0x68, 0xFF, 0x0A])
        let input = text + Data(#"{"v":1,"type":"log","message":"an event"}"#.utf8 + [0x0A])
        let result = try CommandRunner.activity(["render", "--mode", "plain"], input: input)
        #expect(result.status == 0)
        #expect(result.standardOutputData == text)
        #expect(result.standardError.contains("an event"))
    }

    @Test("plain mode: text to standard output unchanged, the display on standard error")
    func plain() throws {
        let result = try CommandRunner.activity(["render", "--mode", "plain", Self.fixture.path])
        #expect(result.status == 0)
        Golden.check(result.standardOutput, named: "render-plain.stdout")
        Golden.check(withoutSummaryTime(result.standardError), named: "render-plain.stderr")
        let fromStdin = try CommandRunner.activity(
            ["render", "--mode", "plain"], input: try Data(contentsOf: Self.fixture))
        #expect(fromStdin.standardOutput == result.standardOutput)
        #expect(withoutSummaryTime(fromStdin.standardError) == withoutSummaryTime(result.standardError))
    }

    @Test("jsonl mode shows the normalized stream; a jsonl log file records it for replay")
    func jsonl() throws {
        let folder = try TemporaryFolder()
        let log = folder.url.appendingPathComponent("run.jsonl")
        let result = try CommandRunner.activity(
            ["render", "--mode", "jsonl", "--log-file", log.path, "--log-format", "jsonl", Self.fixture.path])
        #expect(result.status == 0)
        let events = EventLog(result.standardError)
        Golden.check(events.normalized, named: "render-jsonl.jsonl")
        let recorded = try String(contentsOf: log, encoding: .utf8)
        #expect(EventLog(recorded).normalized == events.normalized)
        #expect(try CommandRunner.activity(["validate", "--strict", log.path]).status == 0)
    }

    @Test("a unit with escape sequences, as libactivity writes it, is shown sanitized in plain and tty mode")
    func hostileUnit() throws {
        // The unit's spelling is the one CrossCheckTests.hostileUnit checks libactivity writes.
        let stream = [
            #"{"v":1,"type":"begin","id":"c.1","title":"T","total":10,"unit":"files\u001b]0;PWNED\u0007\u001b[2J"}"#,
            #"{"v":1,"type":"progress","id":"c.1","completed":5}"#,
            #"{"v":1,"type":"end","id":"c.1","status":"success"}"#,
        ]
        for mode in ["plain", "tty"] {
            let shown = try CommandRunner.activity(
                ["render", "--mode", mode], input: Data((stream.joined(separator: "\n") + "\n").utf8))
            #expect(shown.status == 0, "\(shown.standardError)")
            if mode == "plain" { #expect(shown.standardError.contains("(10 files"), "\(shown.standardError)") }
            #expect(!shown.standardError.contains("PWNED"), "--mode \(mode): \(shown.standardError.debugDescription)")
            #expect(
                !shown.standardError.contains("\u{1B}]0") && !shown.standardError.contains("\u{1B}[2J"),
                "\(shown.standardError.debugDescription)")
        }
    }

    @Test("unreadable inputs and log files: a message and a distinct status")
    func badFiles() throws {
        let missing = try CommandRunner.activity(["render", "/nonexistent.jsonl"])
        #expect(missing.status == 66)
        #expect(missing.standardError == "activity render: /nonexistent.jsonl: No such file or directory\n")
        let directory = try CommandRunner.activity(["render", "--mode", "plain", "/"])
        #expect(directory.status == 74)
        #expect(directory.standardError.hasSuffix("activity render: /: Is a directory\n"))
        let log = try CommandRunner.activity(["render", "--log-file", "/nonexistent/dir/log", Self.fixture.path])
        #expect(log.status == 73)
        #expect(log.standardError == "activity render: --log-file /nonexistent/dir/log: No such file or directory\n")
        let plugin = try CommandRunner.activity(["render", "--plugin", "no-such-plugin", Self.fixture.path])
        #expect(plugin.status == 69)
        #expect(
            plugin.standardError
                == "activity render: --plugin no-such-plugin: no executable activity-render-no-such-plugin on PATH\n")
        let extra = try CommandRunner.activity(["render", "a", "b"])
        #expect(extra.status == 64)
    }

    @Test("a log file that is the input is refused: it would be read as it is written, without end")
    func logFileIsInput() throws {
        let folder = try TemporaryFolder()
        let recording = folder.url.appendingPathComponent("run.jsonl")
        let original = try Data(contentsOf: Self.fixture)
        try original.write(to: recording)
        let link = folder.url.appendingPathComponent("link.jsonl")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: recording)
        // The recording is the input as FILE, as standard input, and through a link.
        let runs: [(arguments: [String], fromStandardInput: Bool)] = [
            (
                ["render", "--mode", "plain", "--log-file", recording.path, "--log-format", "jsonl", recording.path],
                false
            ),
            (["render", "--mode", "plain", "--log-file", link.path], true),
            (["replay", "--mode", "plain", "--speed", "1000", "--log-file", link.path, recording.path], false),
        ]
        for run in runs {
            let redirect = run.fromStandardInput ? " < '\(recording.path)'" : ""
            let result = try CommandRunner.run(
                "/bin/sh", ["-c", "exec \"$0\" \"$@\"" + redirect, CommandRunner.activity] + run.arguments, timeout: 20)
            #expect(result.status == 64, "\(run.arguments)")
            #expect(result.standardError.contains("is the input: it would read what it writes, without end"))
            #expect(try Data(contentsOf: recording) == original, "the recording was written to")
        }
    }

    @Test("a recording from the past: the end, abandoned activities and later lines are stamped at its end")
    func recordingTimes() throws {
        let folder = try TemporaryFolder()
        let log = folder.url.appendingPathComponent("build.log")
        let input = """
            {"v":1,"type":"begin","ts":1764500000,"id":"b","title":"Build"}
            {"v":1,"type":"begin","ts":1764500001,"id":"c","parent":"b","title":"Compile"}
            {"v":1,"type":"end","ts":1764500002,"id":"c","status":"failure","error":"boom"}
            {"v":1,"type":"begin","ts":1764500002.5,"id":"l","title":"Lint"}
            {"v":1,"type":"end","ts":1764500003,"id":"b","status":"failure"}
            text after the events

            """
        let result = try CommandRunner.activity(
            ["render", "--mode", "plain", "--log-file", log.path], input: Data(input.utf8))
        #expect(result.status == 0)
        #expect(result.standardError.contains("[   3.0s] ? Lint  0.5s  (abandoned)"), "\(result.standardError)")
        #expect(result.standardError.contains("[   3.0s] 3 activities in 3.0s: 2 failed, 1 abandoned"))
        let times = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map { $0.prefix(24) }
        #expect(times.count == 8)
        #expect(times == times.sorted(), "the log's times go backwards:\n\(times.joined(separator: "\n"))")
        #expect(times.last == "2025-11-30T10:53:23.000Z")
    }

    @Test("a garbage stream never stops the display")
    func garbage() throws {
        var bytes = Data()
        for index in 0..<2000 {
            bytes += Data([UInt8](repeating: UInt8(truncatingIfNeeded: index * 37), count: index % 300))
            bytes += Data(
                "\n{\"v\":1,\"type\":\"begin\",\"id\":\"x\(index)\",\"title\":\"T\(index)\",\"total\":-1}\n".utf8)
        }
        bytes += Data(#"{"v":1,"type":"begin","id":"last","title":"Last"}"#.utf8)
        let result = try CommandRunner.activity(["render", "--mode", "jsonl"], input: bytes)
        #expect(result.status == 0)
        let log = EventLog(result.standardError)
        #expect(log.begin(titled: "Last") != nil)
    }

    @Test("in a terminal: the final screen, and the cursor visible afterwards")
    func terminal() throws {
        let pane = try TmuxPane(width: 100, height: 24)
        try pane.type("activity render \(Self.fixture.path); echo EXIT=$?")
        #expect(try pane.waitFor("EXIT=0"))
        #expect(pane.cursorVisible)
        let screen = try pane.screen().replacingOccurrences(of: Self.fixture.path, with: "FIXTURE")
        // The tool's own lines (standard output) and the display's (standard error) share the
        // terminal in an order that depends on timing: each is checked in its own order.
        let passthrough = [
            "Starting the build", "plain output of the tool", #"done: \u001b[31mred\u001b[0m"#, " text with an escape",
        ]
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.filter { passthrough.contains($0) } == passthrough)
        let display = lines.filter { !passthrough.contains($0) }.joined(separator: "\n")
        Golden.check(withoutSummaryTime(display), named: "render-tmux.txt")
    }

    @Test("in a terminal: Ctrl-C finishes the display, restores the cursor and ends by SIGINT (130)")
    func interrupt() throws {
        let pane = try TmuxPane(width: 100, height: 24)
        let firstHalf = try String(contentsOf: Self.fixture, encoding: .utf8).split(separator: "\n").prefix(5)
            .joined(separator: "\n")
        let partial = try pane.folder.file("partial.jsonl", contents: firstHalf + "\n")
        // The outer shell traps SIGINT so that it lives on to print the status.
        try pane.type("sh -c 'trap : INT; (cat \(partial.path); sleep 30) | activity render; echo EXIT=$?'")
        // "Download" is drawn by the display, which handles SIGINT from before it draws.
        #expect(try pane.waitFor("Download"))
        try pane.press("C-c")
        #expect(try pane.waitFor("EXIT=130"))
        #expect(pane.cursorVisible)
        #expect(try pane.screen().contains("? Build"))
    }
}
