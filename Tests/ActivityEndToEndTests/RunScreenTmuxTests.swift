import Foundation
import TestSupport
import Testing

/// `activity run` keeps a command's own display as it is (issue 28): in tmux, the reference
/// terminal, the whole scrollback after `activity run -- CMD` equals the one after `CMD` bare,
/// apart from `activity`'s own lines, numbers (rates, times) made alike.
@Suite("activity run in tmux: the command's display, scrollback and all, as bare", .serialized)
struct RunScreenTmuxTests {
    /// The screen model's fixture programs (`Tests/ActivityTerminalTests/Fixtures/Screen`).
    static let programs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ActivityTerminalTests/Fixtures/Screen")

    /// A Python with tqdm and rich (`Scripts/dependencies.sh`), by its full path.
    static let python: String? = {
        guard
            let result = try? CommandRunner.run(
                "/usr/bin/env", ["python3", "-c", "import rich, tqdm, sys; print(sys.executable)"], timeout: 60),
            result.status == 0
        else { return nil }
        let path = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return path.isEmpty ? nil : path
    }()

    static var hasPython: Bool { TmuxPane.isInstalled && python != nil }

    static func installed(_ tool: String) -> Bool { AdapterTmuxTests.installed(tool) }

    /// What to do once a command shows `text`: press `keys` (tmux's names).
    struct Step {
        var text: String
        var keys: [String]
    }

    /// The scrollback after `command` ran in a fresh 100 × 30 pane, from the line after the one
    /// typed to the end marker (its last `tail` lines, when given: tmux keeps 2,000 lines of
    /// history); with `underRun`, under `activity run`, its own lines left out. The command runs
    /// from a script, so that the line typed is one row either way.
    static func scrollback(
        of command: String, underRun: Bool, steps: [Step] = [], tail: Int? = nil, setUp: (URL) throws -> Void = { _ in }
    ) throws -> [String] {
        let pane = try TmuxPane(width: 100, height: 30)
        try setUp(pane.folder.url)
        try "exec \(command)\n".write(
            to: pane.folder.url.appendingPathComponent("run.sh"), atomically: true, encoding: .utf8)
        try pane.type("cd \(pane.folder.url.path); clear; echo CLE''ARED")
        // The screen cleared and the prompt back: a line typed before `clear` ran would be
        // erased with the screen (the fresh pane's first prompt looks like the one after it).
        _ = try pane.waitForScreen { $0.trimmingCharacters(in: .whitespacesAndNewlines) == "CLEARED\n$" }
        try pane.type((underRun ? "activity run -- " : "") + "sh run.sh; echo FIN''ISHED")
        for step in steps {
            try pane.wait(for: step.text)
            try pane.tmux(["send-keys"] + step.keys)
        }
        _ = try pane.waitForScreen { $0.split(separator: "\n").contains { $0.hasSuffix("FINISHED") } }
        var lines = try pane.transcript().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let end = try #require(lines.lastIndex { $0.hasSuffix("FINISHED") }, "\(lines)")
        // A last row without a line break is ended under run (its summary starts on a row of
        // its own); bare, the shell's next output follows on it.
        lines[end].removeLast("FINISHED".count)
        while lines[end].last == " " { lines[end].removeLast() }
        if let tail {
            lines = Array(lines[(end - tail)...end])
        } else {
            let typed = try #require(lines.lastIndex { $0.hasSuffix("FIN''ISHED") }, "\(lines)")
            lines = Array(lines[(typed + 1)...end])
        }
        if lines.last == "" { lines.removeLast() }
        if underRun { lines = lines.filter { !isOwnLine($0) } }
        return lines.map(normalized)
    }

    /// `activity`'s own lines: an activity's end, the summary.
    static func isOwnLine(_ line: String) -> Bool {
        let trimmed = line.drop { $0 == " " }
        return ["✔ ", "✘ ", "⊘ ", "⚠ "].contains { trimmed.hasPrefix($0) } || line.hasPrefix("slowest steps:")
            || line.contains(" activities in ")
    }

    /// `line` with every run of digits as `0`: rates and times differ from run to run.
    static func normalized(_ line: String) -> String {
        var result = ""
        var inNumber = false
        for character in line {
            if character.isASCII, character.isNumber {
                if !inNumber { result.append("0") }
                inNumber = true
            } else {
                result.append(character)
                inNumber = false
            }
        }
        return result
    }

    static func expectSameAsBare(
        _ command: String, steps: [Step] = [], tail: Int? = nil, leavesRows: Bool = true,
        setUp: (URL) throws -> Void = { _ in }, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let bare = try scrollback(of: command, underRun: false, steps: steps, tail: tail, setUp: setUp)
        var run = try scrollback(of: command, underRun: true, steps: steps, tail: tail.map { $0 + 8 }, setUp: setUp)
        // The same tail of the command's own rows: activity's lines at the end were left out.
        if tail != nil { run = Array(run.suffix(bare.count)) }
        #expect(
            run == bare, "under run:\n\(run.joined(separator: "\n"))\nbare:\n\(bare.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
        #expect(bare.isEmpty != leavesRows, "\(bare)", sourceLocation: sourceLocation)
    }

    @Test("tqdm: an outer bar and inner bars at position=1, leave=False", .enabled(if: hasPython))
    func tqdmNested() throws {
        try Self.expectSameAsBare("\(try #require(Self.python)) \(Self.programs.path)/tqdm_nested.py")
    }

    @Test("rich's Progress with two tasks", .enabled(if: hasPython))
    func richProgress() throws {
        try Self.expectSameAsBare("\(try #require(Self.python)) \(Self.programs.path)/rich_progress.py")
    }

    @Test("three rows redrawn with cursor-up", .enabled(if: TmuxPane.isInstalled))
    func cursorUp() throws {
        try Self.expectSameAsBare("sh \(Self.programs.path)/cursor_up.sh")
    }

    @Test("a status row kept on the last row with a scroll region (DECSTBM)", .enabled(if: TmuxPane.isInstalled))
    func scrollRegion() throws {
        try Self.expectSameAsBare("sh \(Self.programs.path)/scroll_region.sh")
    }

    @Test("less -X, quit at its prompt", .enabled(if: TmuxPane.isInstalled && installed("less")))
    func lessNoInit() throws {
        try Self.expectSameAsBare(
            "less -X lines.txt", steps: [Step(text: "lines.txt", keys: ["q"])],
            setUp: { folder in
                try (1...100).map { "line \($0)\n" }.joined().write(
                    to: folder.appendingPathComponent("lines.txt"), atomically: true, encoding: .utf8)
            })
    }

    @Test("git log through its pager (less -FRX)", .enabled(if: TmuxPane.isInstalled && installed("git")))
    func gitLog() throws {
        let setUp: (URL) throws -> Void = { folder in
            let git = ["-C", folder.path, "-c", "user.name=A", "-c", "user.email=a@example.com"]
            _ = try CommandRunner.run("/usr/bin/env", ["git", "init", "-q", folder.path])
            for number in 1...12 {
                _ = try CommandRunner.run(
                    "/usr/bin/env",
                    ["GIT_COMMITTER_DATE=2026-01-01T00:00:00", "git"] + git + [
                        "commit", "-q", "--allow-empty", "--date=2026-01-01T00:00:00", "-m", "commit \(number)",
                    ])
            }
        }
        try Self.expectSameAsBare(
            "env GIT_PAGER='less -FRX' git log", steps: [Step(text: "    commit 8", keys: ["q"])], setUp: setUp)
    }

    @Test("vim on the alternate screen", .enabled(if: TmuxPane.isInstalled && installed("vim")))
    func vim() throws {
        try Self.expectSameAsBare(
            "vim -u NONE -N notes.txt", steps: [Step(text: "notes.txt", keys: [":q!", "Enter"])], leavesRows: false,
            setUp: {
                try "one\ntwo\n".write(to: $0.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
            })
    }

    @Test("a read -p prompt, answered", .enabled(if: TmuxPane.isInstalled && installed("bash")))
    func readPrompt() throws {
        try Self.expectSameAsBare(
            "bash --norc -c 'read -e -p \"Your name: \" name; echo \"Hello, $name\"'",
            steps: [Step(text: "Your name:", keys: ["Ann", "Space", "Lee", "Enter"])])
    }

    @Test("1 MB without a line break", .enabled(if: TmuxPane.isInstalled && installed("python3")))
    func megabyteWithoutNewline() throws {
        let script = "import sys; sys.stdout.write(''.join('chunk %d of text;' % n for n in range(70000))[:1 << 20])"
        try Self.expectSameAsBare("python3 -c \"\(script)\"", tail: 1000)
    }
}
