import Foundation
import Testing

/// A private tmux server with one pane of a fixed size running `sh`, for end-to-end terminal
/// tests: type into it, read the screen and the cursor state. The server is killed on deinit.
final class TmuxPane {
    let socket = "activity-test-\(UUID().uuidString.prefix(8))"
    let folder: TemporaryFolder

    init(width: Int = 100, height: Int = 24) throws {
        folder = try TemporaryFolder()
        let shell = [
            "env", "-i", "PATH=\(CommandRunner.path)", "HOME=\(folder.url.path)", "ACTIVITY_HISTORY=off",
            "LANG=C.UTF-8", "TERM=tmux-256color",
            "PS1=$ ", "sh",
        ]
        let result = try tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)"] + shell)
        #expect(result.status == 0, "tmux new-session: \(result.standardError)")
        // Type nothing before the shell is ready, or the screen depends on the timing.
        #expect(try waitFor("$"), "the shell in tmux never showed its prompt")
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> CommandResult {
        try CommandRunner.run("/usr/bin/env", ["tmux", "-L", socket, "-f", "/dev/null"] + arguments, timeout: 20)
    }

    /// Types a command line and presses Enter.
    func type(_ line: String) throws {
        try tmux(["send-keys", "-l", line])
        try tmux(["send-keys", "Enter"])
    }

    func press(_ key: String) throws {
        try tmux(["send-keys", key])
    }

    /// The visible screen, lines without trailing blanks.
    func screen() throws -> String {
        try tmux(["capture-pane", "-p"]).standardOutput
    }

    /// The scrollback and the visible screen, lines without trailing blanks.
    func transcript() throws -> String {
        try tmux(["capture-pane", "-p", "-S", "-"]).standardOutput
    }

    /// The visible screen with its colours and attributes as escape sequences.
    func screenWithAttributes() throws -> String {
        try tmux(["capture-pane", "-p", "-e"]).standardOutput
    }

    /// Changes the pane's size, as a person resizing the window.
    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    var cursorVisible: Bool {
        (try? tmux(["display-message", "-p", "#{cursor_flag}"]).standardOutput) == "1\n"
    }

    /// Waits until the screen contains `text`, for at most `timeout` seconds: a bound for a
    /// broken run only, long enough for a machine busy with the rest of the tests.
    func waitFor(_ text: String, timeout: Double = 60) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try screen().contains(text) { return true }
            usleep(20_000)
        }
        return false
    }

    deinit { _ = try? tmux(["kill-server"]) }
}
