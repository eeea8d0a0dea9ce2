import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private tmux server with one pane of a fixed size, for end-to-end terminal tests: type into
/// it, read the screen and the cursor state. The server is killed on deinit.
///
/// tmux runs through ``CommandRunner/run(_:_:input:environment:currentDirectory:timeout:)``
/// (spawned, then waited for with `waitpid`): Foundation's `Process` would wait for the server
/// tmux starts to exit.
package final class TmuxPane {
    package let socket = "activity-test-\(UUID().uuidString.prefix(8))"
    package let folder: TemporaryFolder

    /// Whether tmux is installed where the tests look for it.
    package static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// A pane running `sh` with a clean environment (the build folder on `PATH`, no history, a
    /// UTF-8 locale, the prompt `$ `), once it shows its prompt.
    package convenience init(width: Int = 100, height: Int = 24) throws {
        try self.init(width: width, height: height, command: [])
        // Type nothing before the shell is ready, or the screen depends on the timing.
        #expect(try waitFor("$"), "the shell in tmux never showed its prompt")
    }

    /// A pane running `command` (a program and its arguments; one word is run by a shell), in
    /// the environment of ``CommandRunner/baseEnvironment(_:)``; the caller waits for what it
    /// shows.
    package convenience init(width: Int, height: Int, command: [String]) throws {
        try self.init(width: width, height: height, command: command.isEmpty ? ["sh"] : command, clean: command.isEmpty)
    }

    /// With `clean`, `command` is a shell given only the build folder on `PATH`, a home of its
    /// own, no history, a UTF-8 locale and the prompt `$ `: nothing of the machine's own
    /// environment (`CI` on a CI runner would make every display plain lines).
    private init(width: Int, height: Int, command: [String], clean: Bool) throws {
        folder = try TemporaryFolder()
        let environment = [
            "env", "-i", "PATH=\(CommandRunner.path)", "HOME=\(folder.url.path)", "ACTIVITY_HISTORY=off",
            "LANG=C.UTF-8", "TERM=tmux-256color", "PS1=$ ",
        ]
        let result = try tmux(
            ["new-session", "-d", "-x", "\(width)", "-y", "\(height)"] + (clean ? environment : []) + command)
        #expect(result.status == 0, "tmux new-session: \(result.standardError)")
    }

    /// A pane running an interactive bash without start-up files, in the clean environment of the
    /// `sh` pane, once the prompt shows. bash, not sh: see ``suspendJob()``.
    package static func bash(width: Int, height: Int) throws -> TmuxPane {
        let pane = try TmuxPane(
            width: width, height: height, command: ["bash", "--norc", "--noprofile", "-i"], clean: true)
        try pane.wait(for: "$")
        return pane
    }

    @discardableResult
    package func tmux(_ arguments: [String]) throws -> CommandResult {
        try CommandRunner.run("/usr/bin/env", ["tmux", "-L", socket, "-f", "/dev/null"] + arguments, timeout: 20)
    }

    /// Types a command line and presses Enter.
    package func type(_ line: String) throws {
        try tmux(["send-keys", "-l", line])
        try tmux(["send-keys", "Enter"])
    }

    /// Sends keys by tmux's names (`C-c`, `Escape`, `Enter`); other words are typed as they are.
    package func press(_ keys: String...) throws {
        try tmux(["send-keys"] + keys)
    }

    /// The visible screen, lines without trailing blanks.
    package func screen() throws -> String {
        try tmux(["capture-pane", "-p"]).standardOutput
    }

    /// The scrollback and the visible screen, lines without trailing blanks.
    package func transcript() throws -> String {
        try tmux(["capture-pane", "-p", "-S", "-"]).standardOutput
    }

    /// The visible screen with its colours and attributes as escape sequences.
    package func screenWithAttributes() throws -> String {
        try tmux(["capture-pane", "-p", "-e"]).standardOutput
    }

    /// Changes the pane's size, as a person resizing the window.
    package func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    package var cursorVisible: Bool {
        (try? tmux(["display-message", "-p", "#{cursor_flag}"]).standardOutput) == "1\n"
    }

    /// What tmux's `display-message -p` gives for `format` (`#{mouse_any_flag}`), without its
    /// line break.
    package func display(_ format: String) -> String {
        let answer = (try? tmux(["display-message", "-p", format]).standardOutput) ?? ""
        return answer.hasSuffix("\n") ? String(answer.dropLast()) : answer
    }

    /// Waits until ``display(_:)`` gives `value` for `format`, for at most `timeout` seconds (a
    /// bound for a broken run only).
    package func waitFor(format: String, toBe value: String, timeout: Double = 60) -> Bool {
        Poll.until(timeout: timeout) { display(format) == value }
    }

    /// Waits until the cursor is shown (or hidden), for at most `timeout` seconds (a bound for a
    /// broken run only).
    package func waitForCursor(visible: Bool, timeout: Double = 60) -> Bool {
        Poll.until(timeout: timeout) { cursorVisible == visible }
    }

    /// Waits until the screen contains `text`, for at most `timeout` seconds: a bound for a
    /// broken run only, long enough for a machine busy with the rest of the tests.
    package func waitFor(_ text: String, timeout: Double = 60) throws -> Bool {
        try screen(when: { $0.contains(text) }, timeout: timeout) != nil
    }

    /// The screen once `condition` holds, or `nil` after `timeout` seconds (a bound for a broken
    /// run only).
    package func screen(when condition: (String) -> Bool, timeout: Double = 60) throws -> String? {
        try Poll.answer(timeout: timeout, every: 0.02) {
            let screen = try screen()
            return condition(screen) ? screen : nil
        }
    }

    /// The screen once `condition` holds; after a minute the test fails with the screen it shows
    /// (a machine busy with the rest of the tests took more than ten seconds to start a shell).
    package func waitForScreen(
        sourceLocation: SourceLocation = #_sourceLocation, where condition: (String) -> Bool
    ) throws -> String {
        if let screen = try screen(when: condition) { return screen }
        let screen = (try? screen()) ?? ""
        Issue.record(
            "timed out; the screen shows:\n\(screen)\nthe pane's processes:\n\(processes())",
            sourceLocation: sourceLocation)
        throw CancellationError()
    }

    /// The pane's processes with their states and what each waits in: what a timed-out wait
    /// reports, so that a hang seen once can be told from a slow machine.
    package func processes() -> String {
        guard let pid = try? tmux(["display-message", "-p", "#{pane_pid}"]).standardOutput, !pid.isEmpty else {
            return "(no pane)"
        }
        let session = pid.trimmingCharacters(in: .whitespacesAndNewlines)
        let result = try? CommandRunner.run(
            "/usr/bin/env", ["ps", "-o", "pid,ppid,stat,wchan:32,args", "--sid", session])
        return result?.standardOutput ?? "(ps failed)"
    }

    /// Waits until the screen's last line (trailing blanks dropped, as `capture-pane` does) is
    /// `text`: a shell's prompt back, with nothing typed after it. Returns the screen.
    @discardableResult
    package func waitForLastLine(
        _ text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        try waitForScreen(sourceLocation: sourceLocation) { $0.split(separator: "\n").last.map(String.init) == text }
    }

    /// Waits until the screen contains `text`; after a minute the test fails with the screen.
    package func wait(for text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        _ = try waitForScreen(sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// Presses Ctrl-Z and waits for the shell to say the job stopped. The job's scripts must be
    /// bash, not sh: dash runs each command with vfork, and a Ctrl-Z that lands between the vfork
    /// and the exec stops the child while dash waits for it, uninterruptibly, for ever, so the
    /// job never stops (a second Ctrl-Z does not help either).
    package func suspendJob(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try press("C-z")
        _ = try waitForScreen(sourceLocation: sourceLocation) { $0.contains("Stopped") }
    }

    deinit {
        _ = try? tmux(["kill-server"])
        let folder = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        unlink("\(folder)/tmux-\(getuid())/\(socket)")
    }
}
