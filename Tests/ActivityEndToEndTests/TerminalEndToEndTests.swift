import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `activity render` in a real terminal: tmux runs it in a detached 80 × 24 pane and
/// `capture-pane` shows what a person would see.
@Suite("End to end in a real terminal (tmux)", .serialized, .enabled(if: TmuxPane.isInstalled))
struct TerminalEndToEndTests {
    @Test("the final screen is right and the cursor is visible afterwards")
    func finalScreen() throws {
        let script = "\(EndToEnd.activity) render '\(EndToEnd.fixture)' > out.txt; echo STATUS=$?"
        try EndToEnd.run(script) { tmux, directory in
            let screen = try tmux.waitForScreen { $0.contains("STATUS=") }
            #expect(screen.contains("STATUS=0"))
            #expect(screen.contains("✖ Build › Compile  6.1s"))
            #expect(screen.contains("✖ Build  18.2s  1 step failed"))
            #expect(screen.contains("? Lint  0.2s  (abandoned)"))
            #expect(screen.contains("5 activities in 18.3s: 1 succeeded, 2 failed, 1 cancelled, 1 abandoned"))
            #expect(!screen.contains("⠋") && !screen.contains("running ·"), "a live line was left behind")
            #expect(tmux.cursorVisible)
            // Lines that are not events went to standard output, unchanged.
            #expect(
                (try? String(contentsOfFile: directory + "/out.txt", encoding: .utf8))
                    == "Cloning into 'deps'...\nthis line is { not json\n")
        }
    }

    @Test("a stream whose times are in the past, starting after the display did, is drawn live")
    func streamFromThePast() throws {
        // The fixture was recorded a while ago: the display's clock goes back to the stream's at
        // its first event. Waiting half a second first lets the display tick before it (it ticks
        // every 50 ms); the live region must be drawn all the same, not only at the end.
        let late = "sh -c 'echo $$ > producer; sleep 0.5; head -n 20 \"\(EndToEnd.fixture)\"; exec sleep 60'"
        try EndToEnd.run("\(late) | \(EndToEnd.activity) render; echo STATUS=$?") { tmux, directory in
            _ = try tmux.waitForScreen { $0.contains("Fetch sources") && $0.contains("%") }
            try EndToEnd.stopProducer(in: directory)
            let screen = try tmux.waitForScreen { $0.contains("STATUS=") }
            #expect(screen.contains("STATUS=0"))
            #expect(tmux.cursorVisible)
        }
    }

    @Test("after SIGINT the terminal is restored and the exit status says so")
    func interrupt() throws {
        // The producer ignores the interrupt and keeps the stream open: the exit status comes
        // from the signal, not from the end of the input. It is stopped afterwards.
        let script = "trap : INT; \(EndToEnd.producer) | \(EndToEnd.activity) render; echo STATUS=$?"
        try EndToEnd.run(script) { tmux, directory in
            _ = try tmux.waitForScreen { $0.contains("Fetch sources") && $0.contains("%") }
            #expect(!tmux.cursorVisible, "the cursor is hidden while the display is live")
            try tmux.press("C-c")
            _ = try tmux.waitForScreen { $0.contains("(abandoned)") }
            try EndToEnd.stopProducer(in: directory)
            let screen = try tmux.waitForScreen { $0.contains("STATUS=") }
            #expect(screen.contains("STATUS=130"))
            #expect(screen.contains("? Build  ") && screen.contains("s  (abandoned)"))
            #expect(screen.contains("2 activities in"))
            #expect(!screen.contains("running ·"), "a live line was left behind")
            #expect(tmux.cursorVisible)
        }
    }

    @Test("after SIGTERM the terminal is restored")
    func terminate() throws {
        let script = "\(EndToEnd.producer) | sh -c 'echo $$ > pid; exec \(EndToEnd.activity) render'; echo STATUS=$?"
        try EndToEnd.run(script) { tmux, directory in
            _ = try tmux.waitForScreen { $0.contains("Fetch sources") && $0.contains("%") }
            let pid = try #require(
                (try? String(contentsOfFile: directory + "/pid", encoding: .utf8)).flatMap {
                    Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
                })
            kill(pid, SIGTERM)
            _ = try tmux.waitForScreen { $0.contains("(abandoned)") }
            try EndToEnd.stopProducer(in: directory)
            let screen = try tmux.waitForScreen { $0.contains("STATUS=") }
            #expect(screen.contains("STATUS=143"))
            #expect(tmux.cursorVisible)
        }
    }

    @Test("a resize while live leaves no debris")
    func resize() throws {
        try EndToEnd.run("\(EndToEnd.producer) | \(EndToEnd.activity) render; echo STATUS=$?") { tmux, directory in
            _ = try tmux.waitForScreen { $0.contains("Fetch sources") && $0.contains("%") }
            try tmux.resize(width: 44, height: 20)
            let narrow = try tmux.waitForScreen { screen in
                screen.split(separator: "\n").contains { $0.contains("Fetch sources") && $0.count <= 44 }
            }
            #expect(narrow.split(separator: "\n").filter { $0.contains("Fetch sources") }.count == 1, "\(narrow)")
            try EndToEnd.stopProducer(in: directory)
            let screen = try tmux.waitForScreen { $0.contains("STATUS=") }
            #expect(screen.contains("STATUS=0"))
            #expect(tmux.cursorVisible)
        }
    }
}

/// What the tests share: the fixture, a producer that keeps the stream open, a pane per test.
enum EndToEnd {
    /// The `activity` executable, built next to this test runner.
    static let activity = CommandRunner.activity

    /// The renderers' own fixture: the build these tests draw is the one their unit tests fold.
    static let fixture = Repository.path("Tests/ActivityRenderingTests/Fixtures/build.jsonl")

    /// The first 20 lines of the fixture, then the stream stays open: a shell that writes its
    /// pid to `producer`, ignores SIGINT and sleeps until ``stopProducer(in:)``.
    static var producer: String {
        "sh -c 'echo $$ > producer; trap \"\" INT; head -n 20 \"\(fixture)\"; exec sleep 60'"
    }

    /// Ends the stream that ``producer`` keeps open.
    static func stopProducer(in directory: String) throws {
        let pid = try #require(
            (try? String(contentsOfFile: directory + "/producer", encoding: .utf8)).flatMap {
                Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
            })
        kill(pid, SIGKILL)
    }

    /// Runs `script` with `sh` in a detached 80 × 24 pane (in a UTF-8 locale, outside CI, without
    /// the user's history file), in a temporary directory; the pane and the directory are removed
    /// afterwards.
    static func run(_ script: String, _ body: (TmuxPane, String) throws -> Void) throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: activity),
            "\(activity) is missing: `swift build` builds it next to the test runner")
        let folder = try TemporaryFolder()
        try withExtendedLifetime(folder) {
            let directory = folder.url.path
            let path = try folder.file("script.sh", contents: "cd '\(directory)'\n" + script + "\nsleep 60\n").path
            let pane = try TmuxPane(
                width: 80, height: 24,
                command: [
                    "env", "-u", "CI", "-u", "NO_COLOR", "TERM=tmux-256color", "LANG=C.UTF-8", "ACTIVITY_HISTORY=off",
                    "sh", path,
                ])
            try body(pane, directory)
        }
    }
}
