import ActivityWire
import Foundation
import TestSupport
import Testing

/// `activity run` on a terminal reads the command's screen rows, not its bytes: nested tqdm bars
/// are two rows, the inner one's activities nested under the outer one's (issue 29, item 2).
@Suite("activity run on a terminal: adapters read the screen's rows", .serialized)
struct ScreenRowsTmuxTests {
    /// The Python with tqdm installed (`Scripts/dependencies.sh`), by its full path: the pane's
    /// clean environment has no pyenv or virtual environment of the machine's.
    static let tqdmPython: String? = {
        guard
            let result = try? CommandRunner.run(
                "/usr/bin/env", ["python3", "-c", "import tqdm, sys; print(sys.executable)"], timeout: 60),
            result.status == 0
        else { return nil }
        let path = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return path.isEmpty ? nil : path
    }()

    @Test(
        "nested tqdm bars, with no adapter named: the inner bar's runs nest under the outer bar, which counts to 3",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") && tqdmPython != nil))
    func nestedTqdm() throws {
        let python = try #require(Self.tqdmPython)
        let (events, begins, ends) = try Self.run("\(python) \(Self.script("tqdm-nested.py"))")
        let command = try #require(begins.first { $0.parent == nil }, "\(events)")
        let outer = try #require(begins.first { $0.title == "outer" }, "\(events)")
        #expect(outer.parent == command.id && outer.total == 3)
        let inner = begins.filter { $0.title == "inner" }
        // Each run of the inner bar that a frame showed is an activity; a frame may show the next
        // run before the last one's end, so there are one to three.
        #expect((1...3).contains(inner.count), "\(events)")
        #expect(inner.allSatisfy { $0.parent == outer.id && $0.total == 5 }, "\(events)")
        #expect(ends[outer.id]?.status == .success)
        #expect(inner.allSatisfy { ends[$0.id]?.status == .success }, "\(events)")
        // The outer bar's last count is 3 of 3.
        #expect(Self.counts(of: outer.id, in: events).last == 3, "\(events)")
        // Bars are read from rows, never from a line cut at the margin: no other titles.
        #expect(Set(begins.map(\.title)) == [command.title, "outer", "inner"], "\(events)")
        // The bar in the row the command rewrites after `\r` is the bar's activity, not also the
        // command's message: the message waits for the adapter to read the row.
        let messages = events.compactMap { event -> String? in
            if case .progress(let progress) = event, progress.id == command.id { progress.message } else { nil }
        }
        #expect(!messages.contains { $0.contains("outer:") || $0.contains("inner:") }, "\(messages)")
    }

    @Test(
        "nested tqdm bars at tqdm's own pace end as they close: a command failing afterwards fails none of them",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") && tqdmPython != nil))
    func nestedTqdmEndAsTheyClose() throws {
        let python = try #require(Self.tqdmPython)
        // tqdm draws the inner bar (`leave=False`) ten times a second at most and never at its
        // close, so its last run is cleared short of its total, most often.
        let (events, begins, ends) = try Self.run("sh -c '\(python) \(Self.script("tqdm-nested-default.py")); exit 3'")
        let command = try #require(begins.first { $0.parent == nil }, "\(events)")
        #expect(ends[command.id]?.status == .failure)
        let bars = begins.filter { $0.title == "outer" || $0.title == "inner" }
        #expect(bars.count >= 2 && bars.allSatisfy { ends[$0.id]?.status == .success }, "\(events)")
        // Each ends at its total: the last pass of the inner loop was done when the outer counted it.
        for bar in bars {
            let counts = Self.counts(of: bar.id, in: events)
            #expect((counts.last ?? bar.completed) == bar.total, "\(bar.title): \(counts)")
        }
    }

    static func script(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ActivityAdaptersTests/Fixtures/tqdm/\(name)").path
    }

    /// Runs `command` under `activity run` in a tmux pane; returns the events of its log.
    static func run(
        _ command: String
    ) throws -> (events: [ActivityEvent], begins: [ActivityEvent.Begin], ends: [ActivityID: ActivityEvent.End]) {
        let pane = try TmuxPane(width: 100, height: 30)
        let log = pane.folder.url.appendingPathComponent("log.jsonl")
        try pane.type(
            "env -u PYTHONUNBUFFERED activity run --log-file \(log.path) --log-format jsonl -- \(command);"
                + " echo FIN''ISHED")
        #expect(try pane.waitFor("FINISHED", timeout: 60))
        let events = EventLog(try String(contentsOf: log, encoding: .utf8)).events
        let begins = events.compactMap { if case .begin(let begin) = $0 { begin } else { nil } }
        let ends = Dictionary(
            events.compactMap { if case .end(let end) = $0 { (end.id, end) } else { nil } }, uniquingKeysWith: { $1 })
        return (events, begins, ends)
    }

    /// The counts an activity's progress and end gave, in order.
    static func counts(of id: ActivityID, in events: [ActivityEvent]) -> [Double] {
        events.compactMap { event -> Double? in
            switch event {
            case .progress(let progress) where progress.id == id: progress.completed
            case .end(let end) where end.id == id: end.completed
            default: nil
            }
        }
    }
}
