import Foundation
import TestSupport
import Testing

/// Ctrl-Z under `activity run` leaves the command's rows on the screen as they stand, as a
/// program stopped bare leaves them, and after `fg` and the end the scrollback is bare's, apart
/// from `activity`'s own lines.
@Suite("activity run in tmux: Ctrl-Z shows the command's rows, as bare", .serialized)
struct RunSuspendTmuxTests {
    /// What a 100 × 30 pane shows of `stopped_bar.py` (a green tqdm bar that stands still
    /// halfway, a bold line above it; with `nested`, under an outer bar), bare or under
    /// `activity run`: the screen at the stop, with its styles as escape sequences, and the whole
    /// scrollback after `fg` and the end, both from the line typed on. The command line reads as
    /// bare's, `^Z` (echoed bare by the terminal's line discipline, which `run` has in raw mode)
    /// is left out, and in the scrollback numbers are made alike and, under run, `activity`'s own
    /// lines left out.
    static func screens(underRun: Bool, nested: Bool = false) throws -> (stopped: [String], end: [String]) {
        let python = try #require(RunScreenTmuxTests.python)
        let pane = try TmuxPane.bash(width: 100, height: 30)
        let folder = pane.folder.url
        let gate = folder.appendingPathComponent("gate").path
        try "exec \(python) \(Python.script("stopped_bar.py")) \(gate)\(nested ? " nested" : "")\n".write(
            to: folder.appendingPathComponent("run.sh"), atomically: true, encoding: .utf8)
        try pane.type("cd \(folder.path); clear; echo CLE''ARED")
        _ = try pane.waitForScreen { $0.trimmingCharacters(in: .whitespacesAndNewlines) == "CLEARED\n$" }
        // Not followed by `; echo …`: bash goes on with a list when its first command stops.
        try pane.type((underRun ? "activity run -- " : "") + "bash run.sh")
        try pane.wait(for: "5/10")
        try pane.suspendJob()
        let stopped = try pane.screenWithAttributes()
        // The bar goes on once the job does.
        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        try pane.type("fg; echo FIN''ISHED")
        _ = try pane.waitForScreen { $0.split(separator: "\n").contains { $0.hasSuffix("FINISHED") } }
        let transcript = try pane.transcript()
        func fromTyped(_ screen: String) throws -> [String] {
            var lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let typed = try #require(lines.firstIndex { $0.hasSuffix("bash run.sh") }, "\(lines)")
            lines = Array(lines[typed...])
            while lines.last?.isEmpty == true { lines.removeLast() }
            return lines.map {
                $0.replacingOccurrences(of: "activity run -- ", with: "").replacingOccurrences(of: "^Z", with: "")
            }
        }
        // The screen at the stop holds no number that differs (its escape sequences' do not).
        var end = try fromTyped(transcript).map(RunScreenTmuxTests.normalized)
        if underRun { end = end.filter { !RunScreenTmuxTests.isOwnLine($0) } }
        return (try fromTyped(stopped), end)
    }

    @Test(
        "a tqdm bar stopped with Ctrl-Z stays on the screen, in its colour; after fg the scrollback is bare's",
        .enabled(if: RunScreenTmuxTests.hasPython))
    func stoppedBar() throws {
        let bare = try Self.screens(underRun: false)
        let run = try Self.screens(underRun: true)
        #expect(bare.stopped.contains { $0.hasSuffix("| 5/10") }, "\(bare.stopped)")
        #expect(
            run.stopped == bare.stopped,
            "stopped under run:\n\(run.stopped.joined(separator: "\n"))\nbare:\n\(bare.stopped.joined(separator: "\n"))"
        )
        #expect(
            run.end == bare.end,
            "after fg under run:\n\(run.end.joined(separator: "\n"))\nbare:\n\(bare.end.joined(separator: "\n"))")
    }

    @Test(
        "nested tqdm bars stopped with Ctrl-Z: the shell's line goes under both, where bare it overwrites the inner one",
        .enabled(if: RunScreenTmuxTests.hasPython))
    func stoppedNestedBars() throws {
        let bare = try Self.screens(underRun: false, nested: true)
        let run = try Self.screens(underRun: true, nested: true)
        // The rows' texts, as `capture-pane -p` shows them.
        let plain = run.stopped.map { line in
            line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        }
        let outer = try #require(plain.firstIndex { $0.hasPrefix("outer:") }, "\(plain)")
        #expect(plain.count > outer + 2, "\(plain)")
        #expect(plain.dropFirst(outer + 1).first?.hasSuffix("| 5/10") == true, "the inner bar: \(plain)")
        #expect(plain.dropFirst(outer + 2).first?.hasPrefix("[1]+  Stopped") == true, "\(plain)")
        // From fg on, the scrollback is bare's.
        let fromFg = { (lines: [String]) in Array(lines.drop { !$0.hasSuffix("$ fg; echo FIN''ISHED") }) }
        #expect(!fromFg(bare.end).isEmpty, "\(bare.end)")
        #expect(
            fromFg(run.end) == fromFg(bare.end),
            "after fg under run:\n\(run.end.joined(separator: "\n"))\nbare:\n\(bare.end.joined(separator: "\n"))")
    }
}
