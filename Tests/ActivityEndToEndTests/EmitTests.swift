import ActivityWire
import Foundation
import TestSupport
import Testing

@Suite("activity emit")
struct EmitTests {
    @Test(
        "counts are plain decimal numbers from 0 to 2^53: anything else is a usage error",
        arguments: ["0x10", "9007199254740993", "-1", "nan", "inf", "1e400", "", "3 files"]
    )
    func badCount(_ value: String) throws {
        let result = try CommandRunner.activity(["emit", "begin", "Compiling", "--total", value])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--total must be a decimal number from 0 to 2^53, not '\(value)'"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test("without ACTIVITY_SINK: ids are still printed, nothing else happens")
    func withoutSink() throws {
        let result = try CommandRunner.activity(["emit", "begin", "Compiling", "--total", "3"])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        #expect(result.standardOutput.range(of: #"^[0-9a-f]{16}\.1\n$"#, options: .regularExpression) != nil)
        let given = try CommandRunner.activity(["emit", "begin", "Compiling", "--id", "build.1"])
        #expect(given.standardOutput == "build.1\n")
        for arguments in [["progress", "build.1", "--completed", "2"], ["end", "build.1"], ["log", "hello"]] {
            let quiet = try CommandRunner.activity(["emit"] + arguments)
            #expect(quiet.status == 0)
            #expect(quiet.standardOutput.isEmpty && quiet.standardError.isEmpty)
        }
    }

    @Test("file: sink: one line per call, nested under ACTIVITY_PARENT")
    func fileSink() throws {
        let folder = try TemporaryFolder()
        let log = folder.url.appendingPathComponent("events.jsonl")
        let environment = ["ACTIVITY_SINK": "file:" + log.path, "ACTIVITY_PARENT": "outer.7"]
        let calls: [[String]] = [
            ["begin", "Download", "--id", "dl", "--total", "2048", "--unit", "bytes", "--message", "starting"],
            ["progress", "dl", "--completed", "1024", "--message", "half"],
            ["progress", "dl", "--total", "none"],
            ["log", "--id", "dl", "--level", "warning", "slow mirror"],
            ["log", "--", "--not an option"],
            ["end", "dl", "--status", "failure", "--error", "reset by peer"],
        ]
        for call in calls {
            let result = try CommandRunner.activity(["emit"] + call, environment: environment)
            #expect(result.status == 0, "\(call)")
        }
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.split(separator: "\n").count == calls.count)
        Golden.check(EventLog(text).normalized, named: "emit-file-sink.jsonl")
        let validation = try CommandRunner.activity(["validate", log.path])
        // The parent "outer.7" is not in this file: a warning, not an error.
        #expect(validation.status == 0)
    }

    @Test("a shell step a Swift program started nests under its activity, after its lines in the same file")
    func underASwiftReporter() throws {
        // What ActivitySystem.environment(for:) gives a child (GlobalSystemTests checks it): the
        // reporter's file and its activity's id.
        let folder = try TemporaryFolder()
        let log = try folder.file(
            "events.jsonl", contents: #"{"v":1,"type":"begin","id":"swift.1","title":"Running a script"}"# + "\n")
        let environment = ["ACTIVITY_SINK": "file:" + log.path, "ACTIVITY_PARENT": "swift.1"]
        let begun = try CommandRunner.activity(
            ["emit", "begin", "Step from the shell", "--total", "2"], environment: environment)
        #expect(begun.status == 0)
        let id = begun.standardOutput.trimmingCharacters(in: .newlines)
        for call in [["progress", id, "--completed", "2"], ["end", id]] {
            #expect(try CommandRunner.activity(["emit"] + call, environment: environment).status == 0, "\(call)")
        }
        try writeProgram(
            try String(contentsOf: log, encoding: .utf8) + #"{"v":1,"type":"end","id":"swift.1","status":"success"}"#
                + "\n", to: log)
        let validation = try CommandRunner.activity(["validate", "--strict", log.path])
        #expect(validation.status == 0, "\(validation.standardOutput)\(validation.standardError)")
        let events = EventLog(try String(contentsOf: log, encoding: .utf8))
        #expect(events.begin(titled: "Step from the shell")?.parent == events.begin(titled: "Running a script")?.id)
        #expect(events.endedTitles == ["Step from the shell success", "Running a script success"])
    }

    @Test("a sink that fails the write is said with the system's reason, once, and emit exits 74")
    func fullSink() throws {
        let full = try CommandRunner.activity(
            ["emit", "begin", "T", "--id", "t"], environment: ["ACTIVITY_SINK": "file:/dev/full"])
        #expect(full.status == 74)
        #expect(full.standardOutput == "t\n")
        #expect(
            full.standardError
                == "activity emit: cannot write to ACTIVITY_SINK=\"file:/dev/full\": No space left on device; event not sent\n"
        )
    }

    @Test("emit shows a hostile ACTIVITY_PARENT and ACTIVITY_SINK escaped, never raw")
    func hostileSettings() throws {
        let hostile = "x\u{1B}]0;X\u{07}\u{1B}[2J\u{202E}"
        for environment in [["ACTIVITY_PARENT": hostile], ["ACTIVITY_SINK": "unix:/nonexistent/" + hostile]] {
            let result = try CommandRunner.activity(["emit", "begin", "T"], environment: environment)
            #expect(
                result.standardError.contains(#"\x1b]0;X\x07\x1b[2J\u{202e}"#),
                "\(result.standardError.debugDescription)")
            #expect(!result.standardError.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0 == "\u{202E}" })
        }
    }

    @Test("a sink that is not there costs a warning, never the script's exit status")
    func brokenSink() throws {
        let gone = try CommandRunner.activity(
            ["emit", "begin", "X", "--id", "x"], environment: ["ACTIVITY_SINK": "unix:/nonexistent/sink"])
        #expect(gone.status == 0)
        #expect(gone.standardOutput == "x\n")
        #expect(
            gone.standardError
                == "activity emit: event not sent: cannot connect to unix:/nonexistent/sink: No such file or directory\n"
        )
        let bad = try CommandRunner.activity(["emit", "log", "hi"], environment: ["ACTIVITY_SINK": "tcp:1.2.3.4"])
        #expect(bad.status == 0)
        #expect(bad.standardError.contains(#"ACTIVITY_SINK="tcp:1.2.3.4": expected unix:PATH, fd:N"#))
        let empty = try CommandRunner.activity(["emit", "log", "hi"], environment: ["ACTIVITY_SINK": ""])
        #expect(empty.status == 0)
        #expect(empty.standardError.isEmpty, "an empty ACTIVITY_SINK is unset, as in both libraries")
        let closed = try CommandRunner.run(
            "/bin/sh", ["-c", "activity emit log hi 3>&-"], environment: ["ACTIVITY_SINK": "fd:3"])
        #expect(closed.status == 0)
        #expect(closed.standardError.contains("fd:3 is not an open file descriptor"))
    }

    @Test("on a socket, emit stays until its reader has taken the line and closed: the reader finds it there")
    func waitsForTheReader() throws {
        let folder = try TemporaryFolder()
        // The listener reads the line to its end, then holds the connection open: emit must still
        // exist then (before, it had exited, and `run` named a pid that could be another's).
        // Half a second is long enough for an emit that does not wait to be seen gone, and
        // decides nothing for one that waits, which cannot exit while the connection is open.
        let listener = try folder.file(
            "listener.py",
            contents: """
                import os, socket, sys, time
                path, activity = sys.argv[1], sys.argv[2]
                server = socket.socket(socket.AF_UNIX)
                server.bind(path)
                server.listen(1)
                environment = dict(os.environ, ACTIVITY_SINK="unix:" + path, ACTIVITY_TIMEOUT_MS="60000")
                pid = os.spawnve(os.P_NOWAIT, activity, [activity, "emit", "log", "hello"], environment)
                connection, _ = server.accept()
                data = b""
                while True:
                    chunk = connection.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                deadline = time.monotonic() + 0.5
                while time.monotonic() < deadline:
                    if os.waitpid(pid, os.WNOHANG)[0]:
                        print("emit exited before its reader closed")
                        sys.exit(1)
                    time.sleep(0.01)
                closed = time.monotonic()
                connection.close()
                _, status = os.waitpid(pid, 0)
                print(os.waitstatus_to_exitcode(status), time.monotonic() - closed < 30)
                print(data.decode(), end="")
                """)
        let socket = folder.url.appendingPathComponent("sink").path
        let result = try CommandRunner.run(
            "/usr/bin/env", ["python3", listener.path, socket, CommandRunner.activity], timeout: 90)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.first == "0 True", "emit exits 0 as soon as the reader closes")
        #expect(lines.count == 2 && lines[1].contains(#""message":"hello""#))
    }
}
