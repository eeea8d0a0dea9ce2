import Foundation
import TestSupport
import Testing

/// `--history` on `activity run` and `activity render`: the file stays valid under concurrent
/// runs, a corrupt one costs one warning, a directory that cannot be made costs one warning.
@Suite("activity run and render --history")
struct HistoryCommandTests {
    /// The entries of a history file, after checking its header and the shape of every line.
    func validEntries(_ path: String) throws -> [[String]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "activity-history 1")
        #expect(lines.last == "")
        lines = Array(lines.dropFirst().dropLast())
        let entries = lines.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        for entry in entries {
            #expect(entry.count >= 5, "\(entry)")
            #expect(Double(entry[0]) != nil && Double(entry[1]) != nil, "\(entry)")
            #expect(entry[3].split(separator: ",").allSatisfy { Double($0) != nil }, "\(entry)")
        }
        return entries
    }

    @Test("eight concurrent runs writing one history file all keep their entries, and the file stays valid")
    func concurrentRuns() throws {
        let folder = try TemporaryFolder()
        let history = folder.url.appendingPathComponent("state/history").path
        let script = """
            for i in 1 2 3 4 5 6 7 8; do
              activity run --mode plain --history '\(history)' -- sh -c 'echo step; exit 0' "run $i" >/dev/null 2>&1 &
            done
            wait
            """
        let result = try CommandRunner.run("/bin/sh", ["-c", script], timeout: 120)
        #expect(result.status == 0)
        let entries = try validEntries(history)
        for index in 1...8 {
            #expect(entries.contains { $0.last?.hasSuffix("'run \(index)'") == true }, "run \(index) lost: \(entries)")
        }
        #expect(entries.count == 8)
        #expect(!FileManager.default.fileExists(atPath: history + ".tmp"))
        // A second round adds a duration to each path, and no entry.
        _ = try CommandRunner.run("/bin/sh", ["-c", script], timeout: 120)
        let again = try validEntries(history)
        #expect(again.count == 8)
        #expect(again.allSatisfy { $0[3].split(separator: ",").count == 2 }, "\(again)")
    }

    @Test("a corrupt history gives one warning, the run goes on, and the file is written clean")
    func corruptFile() throws {
        let folder = try TemporaryFolder()
        let history = try folder.file("history", contents: "activity-history 1\n\u{1}garbage\nmore\tgarbage\n").path
        let result = try CommandRunner.activity(["run", "--mode", "plain", "--history", history, "--", "true"])
        #expect(result.status == 0)
        let warnings = result.standardError.split(separator: "\n").filter { $0.contains("history") }
        #expect(warnings.count == 1, "\(result.standardError)")
        #expect(warnings.first?.contains("line 2 is not a history entry; unreadable lines dropped") == true)
        #expect(try validEntries(history).count == 1)

        let notes = try folder.file("notes", contents: "not a history\n").path
        let other = try CommandRunner.activity(["run", "--mode", "plain", "--history", notes, "--", "true"])
        #expect(other.status == 0)
        #expect(other.standardError.contains("not a history file"))
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "not a history\n")
    }

    @Test("a directory that cannot be made: one warning, nothing written, the exit status unchanged")
    func directoryCannotBeMade() throws {
        let folder = try TemporaryFolder()
        let blocker = try folder.file("blocker", contents: "").path
        let result = try CommandRunner.activity(
            ["run", "--mode", "plain", "--history", blocker + "/sub/history", "--", "sh", "-c", "exit 3"])
        #expect(result.status == 3)
        let warnings = result.standardError.split(separator: "\n").filter { $0.contains("history") }
        #expect(warnings.count == 1, "\(result.standardError)")
        #expect(warnings.first?.contains("Not a directory; not used, not written") == true)
        // /proc takes no new directories, even from root.
        let proc = try CommandRunner.activity(
            ["run", "--mode", "plain", "--history", "/proc/self/activity-history/history", "--", "true"])
        #expect(proc.status == 0)
        let procWarnings = proc.standardError.split(separator: "\n").filter { $0.contains("history") }
        #expect(procWarnings.count == 1, "\(proc.standardError)")
        #expect(procWarnings.first?.contains("cannot create /proc/self/activity-history") == true)
    }

    @Test("render reads the history: a step that ran before says how long it usually takes")
    func renderUsually() throws {
        let folder = try TemporaryFolder()
        let history = folder.url.appendingPathComponent("history").path
        let events = """
            {"v":1,"type":"begin","id":"a","title":"Fetch","ts":100}
            {"v":1,"type":"end","id":"a","status":"success","ts":112.5}

            """
        let first = try CommandRunner.activity(
            ["render", "--mode", "plain", "--history", history], input: Data(events.utf8))
        #expect(first.status == 0)
        #expect(!first.standardError.contains("usually"))
        let second = try CommandRunner.activity(
            ["render", "--mode", "plain", "--history", history], input: Data(events.utf8))
        #expect(second.standardError.contains("Fetch (usually 12.5s)"), "\(second.standardError)")
        let off = try CommandRunner.activity(
            ["render", "--mode", "plain", "--no-history"], input: Data(events.utf8),
            environment: ["ACTIVITY_HISTORY": history])
        #expect(!off.standardError.contains("usually"))
        let both = try CommandRunner.activity(["render", "--history", history, "--no-history"])
        #expect(both.status == 64)
        #expect(both.standardError.contains("--history and --no-history exclude each other"))
    }

    @Test("on, in ACTIVITY_HISTORY or --history, is the default file, never a file named on where it runs")
    func historyOn() throws {
        let folder = try TemporaryFolder()
        let events = Data(
            """
            {"v":1,"type":"begin","id":"a","title":"Fetch","ts":100}
            {"v":1,"type":"end","id":"a","status":"success","ts":112.5}

            """.utf8)
        let state = folder.url.appendingPathComponent("state")
        let work = folder.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let environment = ["ACTIVITY_HISTORY": "on", "XDG_STATE_HOME": state.path]
        let first = try CommandRunner.activity(
            ["render", "--mode", "plain"], input: events, environment: environment, currentDirectory: work)
        #expect(first.status == 0)
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("on").path))
        #expect(FileManager.default.fileExists(atPath: state.path + "/activity/history"))
        let second = try CommandRunner.activity(
            ["render", "--mode", "plain", "--history", "on"], input: events,
            environment: ["XDG_STATE_HOME": state.path],
            currentDirectory: work)
        #expect(second.standardError.contains("Fetch (usually 12.5s)"), "\(second.standardError)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("on").path))
    }
}
