import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `activity render` in a real terminal: tmux runs it in a detached 80 × 24 pane and
/// `capture-pane` shows what a person would see.
@Suite("End to end in a real terminal (tmux)", .serialized, .enabled(if: Tmux.available))
struct TerminalEndToEndTests {
    @Test("the final screen is right and the cursor is visible afterwards")
    func finalScreen() throws {
        try Tmux.session { tmux, directory in
            let script = "\(Tmux.activity) render '\(Tmux.fixture)' > '\(directory)/out.txt'; echo STATUS=$?"
            try tmux.run(script, in: directory)
            let screen = try tmux.waitFor { $0.contains("STATUS=") }
            #expect(screen.contains("STATUS=0"))
            #expect(screen.contains("✖ Build › Compile  6.1s"))
            #expect(screen.contains("✖ Build  18.2s  1 step failed"))
            #expect(screen.contains("? Lint  0.2s  (abandoned)"))
            #expect(screen.contains("5 activities in 18.3s: 1 succeeded, 2 failed, 1 cancelled, 1 abandoned"))
            #expect(!screen.contains("⠋") && !screen.contains("running ·"), "a live line was left behind")
            #expect(tmux.cursorVisible())
            // Lines that are not events went to standard output, unchanged.
            #expect(readFile(directory + "/out.txt") == "Cloning into 'deps'...\nthis line is { not json\n")
        }
    }

    @Test("after SIGINT the terminal is restored and the exit status says so")
    func interrupt() throws {
        try Tmux.session { tmux, directory in
            try tmux.run(
                // The producer ignores the interrupt and keeps the stream open: the exit status
                // comes from the signal, not from the end of the input. It is stopped afterwards.
                "trap : INT; \(Tmux.producer) | \(Tmux.activity) render; echo STATUS=$?", in: directory)
            _ = try tmux.waitFor { $0.contains("Fetch sources") && $0.contains("%") }
            #expect(!tmux.cursorVisible(), "the cursor is hidden while the display is live")
            tmux.keys("C-c")
            _ = try tmux.waitFor { $0.contains("(abandoned)") }
            try Tmux.stopProducer(in: directory)
            let screen = try tmux.waitFor { $0.contains("STATUS=") }
            #expect(screen.contains("STATUS=130"))
            #expect(screen.contains("? Build  ") && screen.contains("s  (abandoned)"))
            #expect(screen.contains("2 activities in"))
            #expect(!screen.contains("running ·"), "a live line was left behind")
            #expect(tmux.cursorVisible())
        }
    }

    @Test("after SIGTERM the terminal is restored")
    func terminate() throws {
        try Tmux.session { tmux, directory in
            try tmux.run(
                "\(Tmux.producer) | sh -c 'echo $$ > pid; exec \(Tmux.activity) render'; echo STATUS=$?",
                in: directory)
            _ = try tmux.waitFor { $0.contains("Fetch sources") && $0.contains("%") }
            let pid = try #require(
                readFile(directory + "/pid").flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
            kill(pid, SIGTERM)
            _ = try tmux.waitFor { $0.contains("(abandoned)") }
            try Tmux.stopProducer(in: directory)
            let screen = try tmux.waitFor { $0.contains("STATUS=") }
            #expect(screen.contains("STATUS=143"))
            #expect(tmux.cursorVisible())
        }
    }

    @Test("a resize while live leaves no debris")
    func resize() throws {
        try Tmux.session { tmux, directory in
            try tmux.run("\(Tmux.producer) | \(Tmux.activity) render; echo STATUS=$?", in: directory)
            _ = try tmux.waitFor { $0.contains("Fetch sources") && $0.contains("%") }
            tmux.command("resize-window -x 44 -y 20")
            let narrow = try tmux.waitFor { screen in
                screen.split(separator: "\n").contains { $0.contains("Fetch sources") && $0.count <= 44 }
            }
            #expect(narrow.split(separator: "\n").filter { $0.contains("Fetch sources") }.count == 1, "\(narrow)")
            try Tmux.stopProducer(in: directory)
            let screen = try tmux.waitFor { $0.contains("STATUS=") }
            #expect(screen.contains("STATUS=0"))
            #expect(tmux.cursorVisible())
        }
    }
}

/// A private tmux server for one test.
struct Tmux {
    let socket: String

    static var available: Bool { system("command -v tmux > /dev/null 2>&1") == 0 }

    /// The `activity` executable, built next to this test runner.
    static let activity: String = Bundle.main.bundleURL.appendingPathComponent("activity").path

    static let fixture: String = {
        let file = #filePath
        return "/" + file.split(separator: "/").dropLast().joined(separator: "/") + "/Fixtures/build.jsonl"
    }()

    /// The first 20 lines of the fixture, then the stream stays open: a shell that writes its
    /// pid to `producer`, ignores SIGINT and sleeps until ``stopProducer(in:)``.
    static var producer: String {
        "sh -c 'echo $$ > producer; trap \"\" INT; head -n 20 \"\(fixture)\"; exec sleep 60'"
    }

    /// Ends the stream that ``producer`` keeps open.
    static func stopProducer(in directory: String) throws {
        let pid = try #require(
            readFile(directory + "/producer").flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        kill(pid, SIGKILL)
    }

    /// Runs `body` with a fresh server and a temporary directory, both removed afterwards.
    static func session(_ body: (Tmux, String) throws -> Void) throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: activity),
            "\(activity) is missing: `swift build` builds it next to the test runner")
        try withTemporaryDirectory { directory in
            let tmux = Tmux(socket: "activity-rendering-\(getpid())")
            defer { tmux.command("kill-server") }
            try body(tmux, directory)
        }
    }

    /// Starts `script` with `sh` in a detached 80 × 24 pane, in a UTF-8 locale and outside CI.
    func run(_ script: String, in directory: String) throws {
        let path = directory + "/script.sh"
        writeFile(path, "cd '\(directory)'\n" + script + "\nsleep 60\n")
        let status = command(
            "new-session -d -x 80 -y 24 \"env -u CI -u NO_COLOR TERM=tmux-256color LANG=C.UTF-8 sh '\(path)'\"")
        try #require(status == 0, "tmux could not start")
    }

    @discardableResult
    func command(_ arguments: String, output: String? = nil) -> Int32 {
        let redirect = output.map { " > '\($0)' 2>/dev/null" } ?? " > /dev/null 2>&1"
        return system("tmux -L \(socket) -f /dev/null \(arguments)\(redirect)")
    }

    func keys(_ keys: String) { command("send-keys \(keys)") }

    func capture() -> String {
        let path = "/tmp/\(socket).capture"
        defer { unlink(path) }
        command("capture-pane -p", output: path)
        return readFile(path) ?? ""
    }

    func cursorVisible() -> Bool {
        let path = "/tmp/\(socket).cursor"
        defer { unlink(path) }
        command("display-message -p '#{cursor_flag}'", output: path)
        return readFile(path)?.hasPrefix("1") ?? false
    }

    /// The screen, once `condition` holds; fails after a minute, a bound for a broken run only (a
    /// machine busy with the rest of the tests took more than ten seconds to start the shell).
    func waitFor(_ condition: (String) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        var screen = ""
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            screen = capture()
            if condition(screen) { return screen }
            usleep(50_000)
        }
        Issue.record("timed out; the screen shows:\n\(screen)", sourceLocation: sourceLocation)
        throw CancellationError()
    }
}
