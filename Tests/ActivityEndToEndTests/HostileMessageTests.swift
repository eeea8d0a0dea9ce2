import Foundation
import TestSupport
import Testing

/// Every message that quotes something from outside (a path, a command, a variable, an argument)
/// shows its controls as visible escapes: a name must never act on the terminal it is shown on.
@Suite("Messages quote names with their controls escaped")
struct HostileMessageTests {
    static let clear = "\u{1B}[2J"
    static let title = "\u{1B}]0;X\u{07}"

    /// No control but the line feed, and no bidirectional override, in what reached the terminal.
    func expectClean(_ text: String, _ shown: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!text.isEmpty, sourceLocation: sourceLocation)
        #expect(
            !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F || $0 == "\u{202E}" },
            "\(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(text.contains(shown), "\(text.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test("run: a command that cannot execute, or is not found")
    func runCommand() throws {
        let folder = try TemporaryFolder()
        let directory = folder.url.appendingPathComponent("d\(Self.clear)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let notExecutable = try CommandRunner.activity(["run", "--mode", "plain", "--", directory.path])
        #expect(notExecutable.status == 126)
        expectClean(notExecutable.standardError, #"d\x1b[2J: cannot execute: it is a directory"#)
        let missing = try CommandRunner.activity(["run", "--mode", "plain", "--", "nope\(Self.title)"])
        #expect(missing.status == 127)
        expectClean(missing.standardError, #"nope\x1b]0;X\x07: command not found"#)
    }

    @Test("run: TMPDIR in the error of the socket directory")
    func temporaryDirectory() throws {
        let result = try CommandRunner.activity(
            ["run", "--mode", "plain", "--", "true"], environment: ["TMPDIR": "/nonexistent/\(Self.title)"])
        #expect(result.status != 0)
        expectClean(result.standardError, #"mkdtemp /nonexistent/\x1b]0;X\x07: No such file or directory"#)
    }

    @Test("render: a log file that is the input")
    func logFileIsTheInput() throws {
        let folder = try TemporaryFolder()
        let file = try folder.file("f\(Self.clear).jsonl", contents: #"{"v":1,"type":"log","message":"m"}"# + "\n")
        let result = try CommandRunner.run(
            "/bin/sh", ["-c", #"exec activity render --log-file "$0" <"$0""#, file.path])
        #expect(result.status == 64)
        expectClean(result.standardError, #"f\x1b[2J.jsonl is the input"#)
    }

    @Test("report and export: FILE:LINE diagnostics and the output's path")
    func recordingTools() throws {
        let folder = try TemporaryFolder()
        let recording = try folder.file(
            "r\(Self.clear).jsonl", contents: "junk\n" + #"{"v":1,"type":"begin","id":"a","title":"t"}"# + "\n")
        for arguments in [
            ["report", "-o", "/nonexistent/\(Self.clear).html", recording.path],
            ["export", "--format", "chrome-trace", "-o", "/nonexistent/\(Self.clear).json", recording.path],
        ] {
            let result = try CommandRunner.activity(arguments)
            #expect(result.status == 73, "\(arguments)")
            expectClean(result.standardError, #"r\x1b[2J.jsonl:1: invalid-json"#)
            expectClean(result.standardError, #"/nonexistent/\x1b[2J."#)
        }
    }

    @Test("usage errors quote the argument")
    func usage() throws {
        let status = try CommandRunner.activity(["emit", "end", "x", "--status", Self.clear])
        #expect(status.status == 64)
        expectClean(status.standardError, #"not '\x1b[2J'"#)
        let command = try CommandRunner.activity(["\(Self.clear)foo"])
        #expect(command.status == 64)
        expectClean(command.standardError, #"unknown command '\x1b[2Jfoo'"#)
    }
}
