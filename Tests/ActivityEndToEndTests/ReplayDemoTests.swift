import ActivityWire
import Foundation
import TestSupport
import Testing

@Suite("activity replay and activity demo")
struct ReplayDemoTests {
    @Test("replay plays a recording with its timing, scaled by --speed")
    func replay() throws {
        let folder = try TemporaryFolder()
        // Two seconds of recorded time.
        let recording = try folder.file(
            "recording.jsonl",
            contents: """
                {"v":1,"type":"begin","ts":1700000000.0,"id":"a","title":"Upload","total":10}
                {"v":1,"type":"progress","ts":1700000001.0,"id":"a","completed":5}
                {"v":1,"type":"end","ts":1700000002.0,"id":"a"}

                """)
        let started = Date()
        let result = try CommandRunner.activity(["replay", "--speed", "4", "--mode", "jsonl", recording.path])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0)
        #expect(elapsed >= 0.5, "2 s of recording at speed 4 took \(elapsed) s")
        let log = EventLog(result.standardError)
        Golden.check(log.normalized, named: "replay.jsonl")
        // The events are stamped anew, so durations are those of the replay.
        let first = ActivityEventDecoder().decode(String(result.standardError.split(separator: "\n")[0])).event
        #expect((first?.timestamp ?? 0) > 1_700_000_010)
        let gapped = try CommandRunner.activity(["replay", "--max-gap", "0.01", "--mode", "jsonl", recording.path])
        #expect(gapped.status == 0)
        #expect(EventLog(gapped.standardError).normalized == log.normalized)
    }

    @Test("replay needs a readable file")
    func replayErrors() throws {
        #expect(try CommandRunner.activity(["replay"]).status == 64)
        let missing = try CommandRunner.activity(["replay", "/nonexistent.jsonl"])
        #expect(missing.status == 66)
        #expect(missing.standardError == "activity replay: /nonexistent.jsonl: No such file or directory\n")
    }

    @Test("replay of a file without a single event says it is not a recording (65), as report does")
    func replayNotARecording() throws {
        let folder = try TemporaryFolder()
        let text = folder.url.appendingPathComponent("build.log")
        try Data("[   0.0s] ▶ Build\n[   1.0s] ✔ Build  1.0s\n".utf8).write(to: text)
        let result = try CommandRunner.activity(["replay", "--mode", "plain", text.path])
        #expect(result.status == 65)
        #expect(
            result.standardError.hasSuffix(
                "activity replay: \(text.path): not a recording: no activity events in it "
                    + "(record one with --log-file PATH --log-format jsonl)\n"))
        let empty = try CommandRunner.activity(["replay", "--mode", "plain", "-"], input: Data())
        #expect(empty.status == 65)
        #expect(empty.standardError.contains("standard input: not a recording"))
    }

    @Test("demo --quick: a valid stream with a failure, a cancellation, downloads in bytes and logs")
    func demo() throws {
        let result = try CommandRunner.activity(["demo", "--quick", "--mode", "jsonl"])
        #expect(result.status == 0)
        let log = EventLog(result.standardError)
        Golden.check(log.normalized, named: "demo.jsonl")
        let statuses = log.events.compactMap { event -> ActivityEvent.Status? in
            if case .end(let end) = event { end.status } else { nil }
        }
        #expect(statuses.contains(.failure) && statuses.contains(.cancelled) && statuses.contains(.success))
        #expect(log.events.contains { if case .begin(let b) = $0 { b.unit == "bytes" } else { false } })
        #expect(log.events.contains { if case .log(let l) = $0 { l.level == .warning } else { false } })
        let validation = try CommandRunner.activity(["validate", "--strict"], input: Data(result.standardError.utf8))
        #expect(validation.status == 0, "\(validation.standardOutput)")
    }

    @Test("demo in plain mode")
    func demoPlain() throws {
        let result = try CommandRunner.activity(["demo", "--quick", "--mode", "plain"])
        #expect(result.status == 0)
        Golden.check(withoutSummaryTime(result.standardError), named: "demo-plain.txt")
        #expect(try CommandRunner.activity(["demo", "--quick", "--speed", "2"]).status == 64)
    }
}
