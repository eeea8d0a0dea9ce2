import ActivityWire
import Foundation
import TestSupport
import Testing

/// `ActivitySystem.endActivitiesOnInterrupt()` (which the example program calls): SIGINT or
/// SIGTERM ends the open activities as cancelled, children first, and the process still dies of
/// the signal.
@Suite("Ending the activities on SIGINT and SIGTERM")
struct InterruptEndingTests {
    static let program = CommandRunner.binFolder.appendingPathComponent("activity-example-downloads").path

    /// Starts the example with its events in a file, waits until the text written so far holds
    /// `ready`, sends `signal`, and returns the lines and how the process ended.
    func interrupt(
        _ arguments: [String], by signal: Int32, when ready: String
    ) throws -> (events: [ActivityEvent], ended: (code: Int32, killed: Bool)) {
        let folder = try TemporaryFolder()
        let events = folder.url.appendingPathComponent("events.jsonl").path
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ACTIVITY_") }
        environment["ACTIVITY_SINK"] = "file:" + events
        let pid = try CommandRunner.spawn(
            Self.program, arguments, environment: environment, stdin: "/dev/null",
            stdout: folder.url.appendingPathComponent("out").path,
            stderr: folder.url.appendingPathComponent("err").path)
        // Waits for the program's own lines, not for a time: a deadline only against a hang. The
        // check is a search of the text, so that on a loaded machine it comes soon after the
        // line does (decoding the whole file each time took longer as the file grew).
        if !Poll.file(events, contains: ready, timeout: 120) { Issue.record("no \(ready) in the events after 120 s") }
        kill(pid, signal)
        let ended = CommandRunner.wait(pid, timeout: 120, what: "activity-example-downloads")
        return (Self.read(events), ended)
    }

    static func read(_ path: String) -> [ActivityEvent] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let decoder = ActivityEventDecoder()
        // A line still being written is left for the next read.
        return text.split(separator: "\n").dropLast(text.hasSuffix("\n") ? 0 : 1).compactMap {
            if case .event(let event) = decoder.decode(Array($0.utf8)) { event } else { nil }
        }
    }

    static func begins(_ events: [ActivityEvent]) -> [ActivityEvent.Begin] {
        events.compactMap { if case .begin(let begin) = $0 { begin } else { nil } }
    }

    static func ends(_ events: [ActivityEvent]) -> [ActivityEvent.End] {
        events.compactMap { if case .end(let end) = $0 { end } else { nil } }
    }

    @Test("Ctrl-C: the activity ends cancelled, interrupted, and the process dies of SIGINT")
    func interruptWhileWaiting() throws {
        let run = try interrupt(["--wait-for-cancel"], by: SIGINT, when: #""type":"begin""#)
        #expect(run.ended.killed && run.ended.code == SIGINT)
        let ends = Self.ends(run.events)
        #expect(ends.count == 1)
        #expect(ends.first?.status == .cancelled)
        #expect(ends.first?.message == "interrupted")
    }

    @Test("SIGTERM amid nested downloads: every open activity ends cancelled, each before its parent")
    func terminateNested() throws {
        // The first checksum comes a fifth of a second in; the last of 64 downloads ends 12 s in.
        let run = try interrupt(["--files", "64"], by: SIGTERM, when: #""title":"Verifying checksum""#)
        #expect(run.ended.killed && run.ended.code == SIGTERM)
        let begins = Self.begins(run.events)
        let ends = Self.ends(run.events)
        #expect(Set(ends.map(\.id)) == Set(begins.map(\.id)), "every activity begun has ended")
        let interrupted = ends.filter { $0.message == "interrupted" }
        #expect(interrupted.count >= 2)
        #expect(interrupted.allSatisfy { $0.status == .cancelled })
        let position = Dictionary(uniqueKeysWithValues: ends.enumerated().map { ($0.element.id, $0.offset) })
        for begin in begins {
            guard let parent = begin.parent, let child = position[begin.id], let above = position[parent] else {
                continue
            }
            #expect(child < above, "\(begin.title) ends before its parent")
        }
    }
}
