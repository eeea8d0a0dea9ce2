import Foundation
import TestSupport
import Testing

/// `activity render --mode overlay` end to end, in a real terminal: a private tmux server.
@Suite("Overlay in tmux", .serialized)
struct OverlayTmuxTests {
    /// Whether tmux is installed and `activity render --mode overlay` exists in this build (it
    /// refuses a non-terminal with its own message, not "not available").
    static let available: Bool = {
        guard
            TmuxPane.isInstalled
                || ProcessInfo.processInfo.environment["CI"] != nil
        else { return false }
        guard let probe = try? CommandRunner.activity(["render", "--mode", "overlay"], timeout: 20) else {
            return false
        }
        return !probe.standardError.contains("not available")
    }()

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
                stty -icanon min 0 time 0
                echo "pending:$(cat | od -An -c | tr -d ' \\n')."
                echo 'modes shown'
                sleep 60
                """, executable: true)
        let tmux = try TmuxPane(width: 64, height: 18, command: [session.path])
        defer { withExtendedLifetime(folder) {} }  // the scripts must outlive the session

        try tmux.wait(for: "Esc to cancel")
        let covered = try tmux.screen()
        #expect(covered.contains("Signing in"))
        #expect(covered.contains("Contacting the server"))
        #expect(covered.contains("75%"))
        #expect(!covered.contains("the session before"))  // the alternate screen
        #expect(!covered.contains("a line from the tool"))  // held until the overlay hides

        // Keys typed while the overlay blocks input are swallowed: none is echoed, and none is
        // left in the terminal's input for the shell (the session prints what is pending once
        // the overlay has ended, which is after the keys were typed).
        try tmux.press("zzz")

        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        try tmux.wait(for: "status 0")
        // stty prints after the status line: wait until it has.
        try tmux.wait(for: "modes shown")
        let after = try tmux.screen()
        #expect(after.contains("the session before"))
        #expect(after.contains("before the overlay"))
        #expect(after.contains("a line from the tool"))
        #expect(!after.contains("Esc to cancel"))
        #expect(!after.contains("zzz"))  // not echoed
        #expect(after.contains("pending:."), "keys were left for the shell")
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
        let tmux = try TmuxPane(width: 64, height: 18, command: [session.path])
        defer { withExtendedLifetime(folder) {} }
        try tmux.wait(for: "Esc to cancel")
        #expect(try tmux.screen().contains("sleep 30"))
        // Esc after other keys in the same read is still a lone Esc (not an escape sequence's
        // start), so no pacing is needed.
        try tmux.press("qqq")
        try tmux.press("Escape")
        try tmux.wait(for: "status 130")
        #expect(try !tmux.screen().contains("qqq"))  // swallowed while the overlay blocked input
    }

    @Test(
        "run --mode overlay: a reporter naming an outside process as its owner gets Esc's cancel itself",
        .enabled(if: OverlayTmuxTests.available, "tmux is missing or this build has no --mode overlay")
    )
    func cancelNeverSignalsAnOutsideProcess() throws {
        let folder = try TemporaryFolder()
        let received = folder.url.appendingPathComponent("received").path
        // The reporter claims the victim as its owner, with SIGTERM as its cancel signal, then
        // waits on its connection for whatever the run sends it.
        let reporter = try folder.file(
            "reporter.py",
            contents: """
                import os, socket, sys
                sink = socket.socket(socket.AF_UNIX)
                sink.connect(os.environ["ACTIVITY_SINK"][len("unix:"):])
                sink.sendall(('{"v":1,"type":"begin","id":"a","title":"Claiming","cancellable":true,'
                    '"attrs":{"x-activity-owner-pid":%s,"x-activity-cancel-signal":15}}\\n' % sys.argv[1]).encode())
                sink.settimeout(60)
                line = sink.recv(4096)
                with open('\(received)', 'wb') as out:
                    out.write(line)
                sink.sendall(b'{"v":1,"type":"end","id":"a","status":"cancelled"}\\n')
                """)
        let session = try folder.file(
            "session.sh",
            contents: """
                #!/bin/sh
                export LANG=C.UTF-8 PATH='\(CommandRunner.path)'
                unset ACTIVITY_SINK ACTIVITY_PARENT NO_COLOR
                sleep 300 &
                victim=$!
                activity run --mode overlay -- python3 '\(reporter.path)' "$victim"
                echo "status $?"
                if kill -0 "$victim"; then echo 'victim alive'; kill "$victim"; else echo 'victim killed'; fi
                sleep 60
                """, executable: true)
        let tmux = try TmuxPane(width: 64, height: 18, command: [session.path])
        defer { withExtendedLifetime(folder) {} }
        try tmux.wait(for: "Claiming")
        try tmux.wait(for: "Esc to cancel")
        try tmux.press("Escape")
        try tmux.wait(for: "status 0")
        try tmux.wait(for: "victim")
        #expect(try tmux.screen().contains("victim alive"), "\((try? tmux.screen()) ?? "")")
        let line = try String(contentsOfFile: received, encoding: .utf8)
        #expect(line.contains(#""type":"cancel""#) && line.contains(#""id":"a""#), "\(line)")
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
        let tmux = try TmuxPane(width: 64, height: 18, command: [session.path])
        defer { withExtendedLifetime(folder) {} }
        try tmux.wait(for: "Signing in")
        let screen = try tmux.screen()
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
        let pidFile = folder.url.appendingPathComponent("pid").path
        let command = try folder.file(
            "ticker.sh",
            contents: """
                #!/bin/bash
                echo $$ > '\(pidFile)'
                i=0
                while [ $i -lt 100 ]; do echo $i >> '\(ticks)'; sleep 0.1; i=$((i+1)); done
                """, executable: true)
        let tmux = try TmuxPane(width: 80, height: 18, command: ["bash --norc -i"])
        defer { withExtendedLifetime(folder) {} }
        try tmux.press(
            "PATH='\(CommandRunner.path)' activity run -- \(command.path)", "Enter",
        )
        func count() -> Int {
            ((try? String(contentsOfFile: ticks, encoding: .utf8)) ?? "").split(separator: "\n").count
        }
        #expect(Poll.until { count() >= 3 })
        try tmux.suspendJob()
        // Stopped, as the kernel says (state T in /proc/PID/stat), rather than quiet for a while.
        let pid = try #require(Poll.nonEmptyFile(pidFile)?.trimmingCharacters(in: .whitespacesAndNewlines))
        let isStopped = Poll.until {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            return stat.split(separator: ")").last?.split(separator: " ").first == "T"
        }
        #expect(isStopped, "the command went on while activity was stopped")
        let stopped = count()
        #expect(tmux.cursorVisible)
        try tmux.press("fg", "Enter")
        #expect(Poll.until { count() >= stopped + 3 }, "fg did not resume the command")
    }

    @Test(
        "Ctrl-Z gives the terminal back to the shell, fg takes it again",
        .enabled(if: OverlayTmuxTests.available, "tmux is missing or this build has no --mode overlay")
    )
    func suspend() throws {
        let folder = try TemporaryFolder()
        let (producer, gate) = try folder.gatedProducer(
            begin: #"{"v":1,"type":"begin","id":"a","title":"Signing in","cancellable":true,"blocking":"dim"}"#,
            end: #"{"v":1,"type":"end","id":"a"}"#)
        let tmux = try TmuxPane.bash(width: 64, height: 18)
        defer { withExtendedLifetime(folder) {} }
        try tmux.press(
            "'\(producer.path)' | activity render --mode overlay", "Enter")
        try tmux.wait(for: "Esc to cancel")
        try tmux.suspendJob()
        #expect(try !tmux.screen().contains("Esc to cancel"))
        try tmux.press(
            "stty -a | tr ' ;' '\\n\\n' | grep -x -e -echo -e echo; echo modes-$((2*3))", "Enter")
        try tmux.wait(for: "modes-6")
        let modes = try tmux.screen().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(modes.contains("echo") && !modes.contains("-echo"))
        try tmux.press("fg", "Enter")
        try tmux.wait(for: "Esc to cancel")
        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        // The shell has the terminal again once the job ends (keys typed before are swallowed
        // while the overlay blocks input, or echoed now).
        _ = try tmux.waitForScreen { !$0.contains("Esc to cancel") }
        try tmux.press("echo ended-$((6*7))", "Enter")
        let screen = try tmux.waitForScreen { $0.contains("ended-42") }
        // A frame drawn after the process continued but before the alternate screen was taken
        // again would have left the box here, on the shell's screen.
        #expect(!screen.contains("Signing in"), "\(screen)")
    }
}
