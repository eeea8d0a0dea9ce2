import ActivityWire
import Foundation
import TestSupport
import Testing

/// `activity run --mode tty` on a terminal that takes nothing until the command is done (a
/// terminal paused with Ctrl-S, an emulator that stalls): reporters are still answered, the
/// display's frames wait, and lines of the reporters' beyond what may wait are told in one line.
@Suite("activity run: a live display on a terminal that takes nothing")
struct StalledTerminalTests {
    struct Outcome {
        var result: CommandResult
        /// What the terminal showed once it was read, escape sequences taken out.
        var screen: String
        /// The `--log-file` in `jsonl`.
        var log: EventLog
    }

    /// Runs `body` under `activity run --mode tty -v` on a 100x30 pseudo-terminal that is not
    /// read until the script writes the fifo `$GATE` (`Scripts/stalled_terminal.py`).
    func run(_ body: String) throws -> Outcome {
        let folder = try TemporaryFolder()
        let script = try folder.file(
            "steps.sh", contents: "#!/bin/sh\n" + body + #"echo done > "$GATE""# + "\n", executable: true)
        let gate = folder.url.appendingPathComponent("gate").path
        let log = folder.url.appendingPathComponent("log.jsonl").path
        guard mkfifo(gate, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let result = try CommandRunner.run(
            "/usr/bin/env",
            ["python3", Python.script("stalled_terminal.py"), "120", gate, log, script.path, CommandRunner.activity],
            environment: ["GATE": gate], timeout: 300)
        let text = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
        let screen = result.standardOutput.replacing(/\x1B\[[0-9;?]*[A-Za-z]/, with: "")
        return Outcome(result: result, screen: screen, log: EventLog(text))
    }

    @Test("every emit is answered while the terminal takes nothing, and every end is shown after")
    func reportersAreAnswered() throws {
        // 150 ends of lines of 400 bytes and their frames: far more than a pty holds. The display
        // used to write on the thread that answers reporters: after 22 steps every `emit` waited
        // for an answer, gave up after a second, and the script never reached its end.
        let outcome = try run(StalledReaderTests.steps)
        #expect(outcome.result.status == 0, "\(outcome.result.standardOutput.suffix(2000))")
        #expect(outcome.result.standardOutput.hasSuffix("status 0\n"))
        let pad = String(repeating: "0", count: 400)
        #expect(outcome.log.endedTitles.dropLast() == ArraySlice((0..<150).map { "Step \($0) \(pad) success" }))
        #expect(!outcome.screen.contains("cannot connect"), "\(outcome.screen.suffix(2000))")
        #expect(!outcome.screen.contains("event not sent"))
        #expect(!outcome.screen.contains("not shown"))
        // Each end's line, its title wrapped after the step's number.
        let shown = outcome.screen.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("✔ Step ") }
        #expect(shown.count == 150, "every end is shown: none was left out")
    }

    @Test("lines of the reporters' beyond what may wait are told in one line; the log file keeps every event")
    func linesLeftOut() throws {
        // 20,000 ends of 60-byte titles (2 MB of lines) on one connection, far more than waits.
        let outcome = try run(
            """
            python3 - <<'END'
            import json, os, socket
            s = socket.socket(socket.AF_UNIX)
            s.connect(os.environ["ACTIVITY_SINK"][len("unix:"):])
            pad = "x" * 40
            for i in range(20000):
                begin = {"v": 1, "type": "begin", "id": "p.%d" % i, "title": "T %d %s" % (i, pad)}
                end = {"v": 1, "type": "end", "id": "p.%d" % i}
                s.sendall((json.dumps(begin) + "\\n" + json.dumps(end) + "\\n").encode())
            s.close()
            END

            """)
        #expect(outcome.result.status == 0, "\(outcome.result.standardOutput.suffix(2000))")
        #expect(outcome.log.endedTitles.filter { $0.hasPrefix("T ") && $0.hasSuffix(" success") }.count == 20000)
        let lines = outcome.screen.split(whereSeparator: \.isNewline)
        // The ends' lines (the summary's slowest steps are indented).
        let shown = lines.filter { $0.hasPrefix("✔ T ") }.count
        let notices = lines.compactMap { line -> Int? in
            guard let match = line.firstMatch(of: /^(\d+) lines? of the display not shown$/) else { return nil }
            return Int(match.1)
        }
        #expect(!notices.isEmpty, "the gap is told")
        #expect(shown + notices.reduce(0, +) == 20000, "every line shown or counted: \(shown) shown, \(notices)")
    }
}
