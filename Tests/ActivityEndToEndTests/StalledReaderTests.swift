import ActivityWire
import Foundation
import TestSupport
import Testing

/// `activity run -- SCRIPT 2>&1 | READER` where READER takes nothing until the script says it is
/// done (through a fifo): reporters are still answered and the command's output waits, whole.
@Suite("activity run: a stalled reader of its output")
struct StalledReaderTests {
    struct Outcome {
        var result: CommandResult
        /// What the reader got: the display and the command's output.
        var output: String
        /// The display (with `displayApart`; else it is in `output`).
        var display: String
        /// The `--log-file` in `jsonl`.
        var log: EventLog
    }

    /// Runs `activity run --mode plain -v` on the script `body`; the reader takes nothing until
    /// the script writes the fifo `$GATE` when `stalls`, else reads at once. It reads the display
    /// and the command's output (`2>&1`), or with `displayApart` the command's output alone (the
    /// display goes to a file, so no display line comes between two pieces of a line of output).
    func run(_ body: String, stalls: Bool, displayApart: Bool = false, mode: String = "plain") throws -> Outcome {
        let folder = try TemporaryFolder()
        let script = try folder.file("steps.sh", contents: "#!/bin/sh\n" + body, executable: true)
        let gate = folder.url.appendingPathComponent("gate").path
        let out = folder.url.appendingPathComponent("out").path
        let log = folder.url.appendingPathComponent("log.jsonl").path
        guard mkfifo(gate, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let reader = stalls ? #"{ read -r _ < "$GATE"; cat > "$OUT"; }"# : #"{ cat > "$OUT"; }"#
        let pipeline =
            #"activity run --mode "$MODE" -v --log-file "$LOG" --log-format jsonl -- "$SCRIPT" "#
            + (displayApart ? #"2>"$OUT.display" | "# : "2>&1 | ") + reader
        let result = try CommandRunner.run(
            "/bin/sh", ["-c", pipeline],
            environment: ["GATE": stalls ? gate : "", "OUT": out, "LOG": log, "SCRIPT": script.path, "MODE": mode],
            timeout: 120)
        // A run that timed out leaves its reader waiting at the gate: let it go, so nothing stays.
        let release = open(gate, O_WRONLY | O_NONBLOCK)
        if release >= 0 { close(release) }
        let output = String(decoding: FileManager.default.contents(atPath: out) ?? Data(), as: UTF8.self)
        let text = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
        let display = String(decoding: FileManager.default.contents(atPath: out + ".display") ?? Data(), as: UTF8.self)
        return Outcome(result: result, output: output, display: display, log: EventLog(text))
    }

    /// Lines of 400 bytes and more: 150 begin/end pairs give the display far more than a pipe
    /// holds, and make more connections than the listening socket's backlog (128) holds
    /// unanswered.
    static let steps = """
        pad=$(printf '%0400d' 0)
        i=0
        while [ $i -lt 150 ]; do
            id=$(activity emit begin "Step $i $pad") && activity emit end "$id"
            i=$((i + 1))
        done

        """

    @Test("every emit is answered while nothing is read: the same ends as with a reader, no warning")
    func reportersAreAnswered() throws {
        let stalled = try run(Self.steps + #"[ -n "$GATE" ] && echo done > "$GATE""# + "\n", stalls: true)
        #expect(stalled.result.status == 0)
        let read = try run(Self.steps, stalls: false)
        let pad = String(repeating: "0", count: 400)
        let expected = (0..<150).map { "Step \($0) \(pad) success" }
        // Then the script's own activity, titled with its path.
        // A failure says what the display warned of (an owner it could not verify, say).
        func warnings(_ outcome: Outcome) -> String {
            outcome.output.split(separator: "\n").filter { $0.contains("warning") }.joined(separator: "\n")
        }
        #expect(stalled.log.endedTitles.dropLast() == ArraySlice(expected), "\(warnings(stalled))")
        #expect(read.log.endedTitles.dropLast() == ArraySlice(expected), "\(warnings(read))")
        #expect(stalled.log.endedTitles.last?.hasSuffix("steps.sh success") == true)
        for outcome in [stalled, read] {
            #expect(!outcome.output.contains("cannot connect"), "\(outcome.output.suffix(2000))")
            #expect(!outcome.output.contains("event not sent"))
            #expect(!outcome.output.contains("not shown"))
            let shown = outcome.output.split(separator: "\n").filter { $0.contains("✔ steps.sh › Step ") }
            #expect(shown.count == 150, "every end is shown: none was left out")
        }
    }

    @Test("the command's output waits for the reader, whole and in order, while reporters are answered")
    func outputWaits() throws {
        // 2 MB of output: more than the display holds; the command waits on a full pipe. 300
        // emits: more connections than the listening socket's backlog holds unanswered.
        let body = """
            seq 1 300000 &
            i=0
            while [ $i -lt 150 ]; do
                id=$(activity emit begin "Step $i") && activity emit end "$id"
                i=$((i + 1))
            done
            echo done > "$GATE"
            wait

            """
        let stalled = try run(body, stalls: true, displayApart: true)
        #expect(stalled.result.status == 0)
        let expected = (1...300_000).map { "\($0)\n" }.joined()
        let whole = stalled.output == expected
        #expect(whole, "\(stalled.output.count) bytes, \(expected.count) expected")
        #expect(stalled.log.endedTitles.prefix(150) == ArraySlice((0..<150).map { "Step \($0) success" }))
        #expect(!stalled.display.contains("cannot connect"))
        #expect(!stalled.display.contains("event not sent"))
    }

    /// 12,000 display lines of 330 bytes (4 MB) on one connection, far more than the queue.
    static let manyLines = """
        python3 - <<'END'
        import json, os, socket
        s = socket.socket(socket.AF_UNIX)
        s.connect(os.environ["ACTIVITY_SINK"][len("unix:"):])
        pad = "x" * 300
        for i in range(6000):
            # Each 1.5 s long: plain mode writes its begin line and its end line.
            begin = {"v": 1, "type": "begin", "ts": 1764417600 + 2 * i, "id": "p.%d" % i, "title": "T %d %s" % (i, pad)}
            end = {"v": 1, "type": "end", "ts": 1764417601.5 + 2 * i, "id": "p.%d" % i}
            s.sendall((json.dumps(begin) + "\\n" + json.dumps(end) + "\\n").encode())
        s.close()
        END

        """

    @Test("display lines beyond the queue are told in one line; the log file keeps every event")
    func displayLinesLeftOut() throws {
        let stalled = try run(Self.manyLines + "echo done > \"$GATE\"\n", stalls: true)
        #expect(stalled.result.status == 0)
        #expect(stalled.log.endedTitles.filter { $0.hasPrefix("T ") && $0.hasSuffix(" success") }.count == 6000)
        let lines = stalled.output.split(separator: "\n")
        let shown = lines.filter { $0.contains("steps.sh › T ") }.count
        let notices = lines.compactMap { line -> Int? in
            guard let match = line.firstMatch(of: /^(\d+) lines of the display not shown$/) else { return nil }
            return Int(match.1)
        }
        #expect(!notices.isEmpty, "the gap is told")
        #expect(shown + notices.reduce(0, +) == 12000, "every line shown or counted")
        #expect(shown < 12000)
        #expect(stalled.output.contains("6001 activities"), "the summary is never left out")
    }

    @Test("--mode jsonl: a stalled reader gets every event, in order, and reporters are answered meanwhile")
    func recordingWaits() throws {
        // 4 MB from one reporter and 50 emits while nothing is read: before, the display's
        // writes blocked the loop, so the reporter's writes and every emit waited on it.
        let body =
            Self.manyLines
                + """
                i=0
                while [ $i -lt 50 ]; do
                    id=$(activity emit begin "Step $i") && activity emit end "$id"
                    i=$((i + 1))
                done
                echo done > "$GATE"

                """
        let stalled = try run(body, stalls: true, mode: "jsonl")
        #expect(stalled.result.status == 0)
        #expect(!stalled.output.contains("cannot connect"))
        #expect(!stalled.output.contains("event not sent"))
        let recorded = EventLog(stalled.output)
        let expected = (0..<6000).map { "T \($0) \(String(repeating: "x", count: 300)) success" }
        let reported = recorded.endedTitles.filter { $0.hasPrefix("T ") }
        let inOrder = reported == expected
        #expect(inOrder, "\(reported.count) of 6000 in the display")
        #expect(recorded.endedTitles.filter { $0.hasPrefix("Step ") } == (0..<50).map { "Step \($0) success" })
        let same = recorded.endedTitles == stalled.log.endedTitles
        #expect(same, "the display is the same recording as the log file")
    }
}
