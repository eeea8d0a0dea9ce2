import Foundation
import Testing

@testable import ActivityCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `activity render --mode overlay` end to end, in a real terminal: a private tmux server.
@Suite("Overlay in tmux", .serialized)
struct OverlayTmuxTests {
    /// Whether tmux is installed and `activity render --mode overlay` exists in this build (it
    /// refuses a non-terminal with its own message, not "not available").
    static let available: Bool = {
        guard
            FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
                || ProcessInfo.processInfo.environment["CI"] != nil
        else { return false }
        guard let probe = try? CommandRunner.activity(["render", "--mode", "overlay"], timeout: 20) else {
            return false
        }
        return !probe.standardError.contains("not available")
    }()

    struct TmuxFailed: Error {
        var arguments: [String]
        var message: String
    }

    /// A tmux server of the test's own, removed afterwards.
    final class Tmux {
        let socket = "activity-overlay-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

        /// Runs a tmux command and returns what it printed. It is spawned directly: Foundation's
        /// `Process` would wait for the server tmux starts to exit.
        @discardableResult
        func run(_ arguments: [String]) throws -> String {
            let folder = try TemporaryFolder()
            let outputPath = folder.url.appendingPathComponent("out").path
            let errorsPath = folder.url.appendingPathComponent("err").path
            let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            let errors = open(errorsPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            defer {
                close(output)
                close(errors)
            }
            let pid = try Spawn.spawn(
                ["tmux", "-L", socket] + arguments, environment: POSIX.environment(), standardOutput: output,
                standardError: errors)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            let text = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
            guard status == 0 else { throw TmuxFailed(arguments: arguments, message: text(errorsPath)) }
            return text(outputPath)
        }

        var screen: String {
            do { return try run(["capture-pane", "-p", "-t", "overlay"]) } catch { return "\(error)" }
        }

        /// Presses Ctrl-Z and waits for the shell to say the job stopped. The job's scripts are
        /// bash, not sh: dash runs `sleep` with vfork, and a Ctrl-Z that lands between the vfork
        /// and the exec stops the child while the shell waits for it, uninterruptibly, for ever,
        /// so the job never stops (dash's own bug, which `activity` cannot undo).
        func suspendJob() throws {
            try run(["send-keys", "-t", "overlay", "C-z"])
            try wait(for: "Stopped")
        }

        /// Waits until the pane shows `text`. The deadline only bounds a broken run: a loaded
        /// machine (tests run in parallel) can take seconds to start a process.
        func wait(for text: String) throws {
            let deadline = Date().addingTimeInterval(60)
            while !screen.contains(text), Date() < deadline { usleep(20_000) }
            try #require(screen.contains(text), "the pane never showed \(text):\n\(screen)")
        }

        deinit {
            _ = try? run(["kill-server"])
            let folder = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
            unlink("\(folder)/tmux-\(getuid())/\(socket)")
        }
    }

    @Test(
        "the overlay covers the screen, swallows keys, and leaves the terminal as it found it",
        .enabled(if: OverlayTmuxTests.available, "tmux is missing or this build has no --mode overlay")
    )
    func overlay() throws {
        let folder = try TemporaryFolder()
        let gate = folder.url.appendingPathComponent("gate").path
        let producer = try folder.file(
            "producer.sh",
            contents: """
                #!/bin/sh
                echo 'before the overlay'
                echo '{"v":1,"type":"begin","id":"a","title":"Signing in","cancellable":true,"blocking":"dim","total":4}'
                echo '{"v":1,"type":"progress","id":"a","completed":3,"message":"Contacting the server"}'
                echo 'a line from the tool'
                i=0
                while [ ! -e '\(gate)' ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done
                echo '{"v":1,"type":"end","id":"a"}'
                """, executable: true)
        let session = try folder.file(
            "session.sh",
            contents: """
                #!/bin/sh
                export LANG=C.UTF-8 PATH='\(CommandRunner.path)'
                unset ACTIVITY_SINK ACTIVITY_PARENT NO_COLOR
                echo 'the session before'
                '\(producer.path)' | activity render --mode overlay
                echo "status $?"
                stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e -echo -e icanon -e -icanon
                echo 'modes shown'
                sleep 60
                """, executable: true)
        let tmux = Tmux()
        defer { withExtendedLifetime(folder) {} }  // the scripts must outlive the session
        try tmux.run(["new-session", "-d", "-s", "overlay", "-x", "64", "-y", "18", session.path])

        try tmux.wait(for: "Esc to cancel")
        let covered = tmux.screen
        #expect(covered.contains("Signing in"))
        #expect(covered.contains("Contacting the server"))
        #expect(covered.contains("75%"))
        #expect(!covered.contains("the session before"))  // the alternate screen
        #expect(!covered.contains("a line from the tool"))  // held until the overlay hides

        try tmux.run(["send-keys", "-t", "overlay", "zzz"])
        usleep(300_000)
        #expect(!tmux.screen.contains("zzz"))

        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        try tmux.wait(for: "status 0")
        // stty prints after the status line: wait until it has.
        try tmux.wait(for: "modes shown")
        let after = tmux.screen
        #expect(after.contains("the session before"))
        #expect(after.contains("before the overlay"))
        #expect(after.contains("a line from the tool"))
        #expect(!after.contains("Esc to cancel"))
        #expect(!after.contains("zzz"))  // swallowed, not left for the shell
        let modes = after.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(modes.contains("echo") && modes.contains("icanon"))
    }

    @Test(
        "run --mode overlay: the command's own activity blocks input, and Esc interrupts the command",
        .enabled(if: OverlayTmuxTests.available, "tmux is missing or this build has no --mode overlay")
    )
    func runInterruptedByEsc() throws {
        let folder = try TemporaryFolder()
        let session = try folder.file(
            "session.sh",
            contents: """
                #!/bin/sh
                export LANG=C.UTF-8 PATH='\(CommandRunner.path)'
                unset ACTIVITY_SINK ACTIVITY_PARENT NO_COLOR
                activity run --mode overlay -- sleep 30
                echo "status $?"
                sleep 60
                """, executable: true)
        let tmux = Tmux()
        defer { withExtendedLifetime(folder) {} }
        try tmux.run(["new-session", "-d", "-s", "overlay", "-x", "64", "-y", "18", session.path])
        try tmux.wait(for: "Esc to cancel")
        #expect(tmux.screen.contains("sleep 30"))
        try tmux.run(["send-keys", "-t", "overlay", "qqq"])
        usleep(200_000)
        try tmux.run(["send-keys", "-t", "overlay", "Escape"])
        try tmux.wait(for: "status 130")
        #expect(!tmux.screen.contains("qqq"))  // swallowed while the overlay blocked input
    }

    @Test(
        "run --mode overlay: what the command reports is the label, not the wrapper's command line",
        .enabled(if: OverlayTmuxTests.available, "tmux is missing or this build has no --mode overlay")
    )
    func runLabelIsTheCommands() throws {
        let folder = try TemporaryFolder()
        let gate = folder.url.appendingPathComponent("gate").path
        let login = try folder.file(
            "login.sh",
            contents: """
                #!/bin/sh
                id=$(activity emit begin 'Signing in' --message 'Contacting the server')
                i=0
                while [ ! -e '\(gate)' ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done
                activity emit end "$id"
                """, executable: true)
        let session = try folder.file(
            "session.sh",
            contents: """
                #!/bin/sh
                export LANG=C.UTF-8 PATH='\(CommandRunner.path)'
                unset ACTIVITY_SINK ACTIVITY_PARENT NO_COLOR
                activity run --mode overlay -- sh '\(login.path)'
                echo "status $?"
                sleep 60
                """, executable: true)
        let tmux = Tmux()
        defer { withExtendedLifetime(folder) {} }
        try tmux.run(["new-session", "-d", "-s", "overlay", "-x", "64", "-y", "18", session.path])
        try tmux.wait(for: "Signing in")
        let screen = tmux.screen
        #expect(screen.contains("Contacting the server"))
        #expect(!screen.contains("login.sh"), "the wrapper's title is the label:\n\(screen)")
        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        try tmux.wait(for: "status 0")
    }

    @Test(
        "run in the foreground: Ctrl-Z stops the command with activity, shows the cursor, and fg resumes both",
        .enabled(if: OverlayTmuxTests.available, "tmux is missing or this build has no --mode overlay")
    )
    func runSuspended() throws {
        let folder = try TemporaryFolder()
        let ticks = folder.url.appendingPathComponent("ticks").path
        let command = try folder.file(
            "ticker.sh",
            contents: """
                #!/bin/bash
                i=0
                while [ $i -lt 100 ]; do echo $i >> '\(ticks)'; sleep 0.1; i=$((i+1)); done
                """, executable: true)
        let tmux = Tmux()
        defer { withExtendedLifetime(folder) {} }
        try tmux.run(["new-session", "-d", "-s", "overlay", "-x", "80", "-y", "18", "bash --norc -i"])
        try tmux.run([
            "send-keys", "-t", "overlay", "PATH='\(CommandRunner.path)' activity run -- \(command.path)", "Enter",
        ])
        func count() -> Int {
            ((try? String(contentsOfFile: ticks, encoding: .utf8)) ?? "").split(separator: "\n").count
        }
        let deadline = Date().addingTimeInterval(60)
        while count() < 3, Date() < deadline { usleep(20_000) }
        try tmux.suspendJob()
        let stopped = count()
        usleep(600_000)
        #expect(count() <= stopped + 1, "the command went on while activity was stopped")
        #expect(try tmux.run(["display", "-p", "-t", "overlay", "#{cursor_flag}"]).hasPrefix("1"))
        try tmux.run(["send-keys", "-t", "overlay", "fg", "Enter"])
        let resumed = Date().addingTimeInterval(60)
        while count() < stopped + 3, Date() < resumed { usleep(20_000) }
        #expect(count() >= stopped + 3, "fg did not resume the command")
    }

    @Test(
        "Ctrl-Z gives the terminal back to the shell, fg takes it again",
        .enabled(if: OverlayTmuxTests.available, "tmux is missing or this build has no --mode overlay")
    )
    func suspend() throws {
        let folder = try TemporaryFolder()
        let gate = folder.url.appendingPathComponent("gate").path
        let producer = try folder.file(
            "producer.sh",
            contents: """
                #!/bin/bash
                echo '{"v":1,"type":"begin","id":"a","title":"Signing in","cancellable":true,"blocking":"dim"}'
                i=0
                while [ ! -e '\(gate)' ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done
                echo '{"v":1,"type":"end","id":"a"}'
                """, executable: true)
        let tmux = Tmux()
        defer { withExtendedLifetime(folder) {} }
        try tmux.run([
            "new-session", "-d", "-s", "overlay", "-x", "64", "-y", "18", "env", "PATH=\(CommandRunner.path)",
            "LANG=C.UTF-8", "PS1=$ ", "bash", "--norc", "--noprofile", "-i",
        ])
        try tmux.wait(for: "$")
        try tmux.run([
            "send-keys", "-t", "overlay", "'\(producer.path)' | activity render --mode overlay; echo finished-$((6*7))",
            "Enter",
        ])
        try tmux.wait(for: "Esc to cancel")
        try tmux.suspendJob()
        #expect(!tmux.screen.contains("Esc to cancel"))
        try tmux.run([
            "send-keys", "-t", "overlay", "stty -a | tr ' ;' '\\n\\n' | grep -x -e -echo -e echo; echo modes-$((2*3))",
            "Enter",
        ])
        try tmux.wait(for: "modes-6")
        let modes = tmux.screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(modes.contains("echo") && !modes.contains("-echo"))
        try tmux.run(["send-keys", "-t", "overlay", "fg", "Enter"])
        try tmux.wait(for: "Esc to cancel")
        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        try tmux.wait(for: "finished-42")
        #expect(!tmux.screen.contains("Esc to cancel"))
    }
}
