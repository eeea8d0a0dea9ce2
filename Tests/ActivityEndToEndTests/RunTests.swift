import ActivityWire
import Foundation
import TestSupport
import Testing

@Suite("activity run")
struct RunTests {
    /// Runs `activity run --mode jsonl -- ARGUMENTS` and reads the display's events.
    func run(
        _ arguments: [String], options: [String] = [], environment: [String: String] = [:]
    ) throws -> (
        CommandResult, EventLog
    ) {
        let result = try CommandRunner.activity(
            ["run", "--mode", "jsonl"] + options + ["--"] + arguments, environment: environment)
        return (result, EventLog(result.standardError))
    }

    @Test("a command that reports nothing just runs; its activity ends in success")
    func silent() throws {
        let (result, log) = try run(["sh", "-c", "echo hello; echo there >&2"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "hello\n")
        #expect(log.otherLines.contains("there"))
        #expect(!log.otherLines.contains("hello"), "a standard output line also went to the display")
        Golden.check(log.normalized, named: "run-silent.jsonl")
    }

    @Test("a non-zero exit: the same status, and the activity fails with it")
    func failure() throws {
        let (result, log) = try run(["sh", "-c", "printf 'no newline at the end'; exit 3"])
        #expect(result.status == 3)
        #expect(result.standardOutput == "no newline at the end", "the missing final newline stays missing")
        let root = try #require(log.begin(titled: "sh -c 'printf '\\''no newline at the end'\\''; exit 3'"))
        let end = try #require(log.end(of: root.id))
        #expect(end.status == .failure)
        #expect(end.error == "exit status 3")
    }

    @Test("a killed command ends run by the same signal, without a core file; \"killed by SIGKILL\"")
    func killed() throws {
        let (result, log) = try run(["sh", "-c", "kill -KILL $$"])
        #expect(result.killed && result.status == SIGKILL)
        let (segfault, _) = try run(["sh", "-c", "kill -SEGV $$"])
        #expect(segfault.killed && segfault.status == SIGSEGV)
        #expect(!segfault.standardError.contains("Crash"), "a crash report: \(segfault.standardError)")
        let (exited, _) = try run(["sh", "-c", "exit 130"])
        #expect(!exited.killed && exited.status == 130, "an exit status of 130 is not a signal")
        let end = try #require(log.events.last)
        guard case .end(let e) = end else { Issue.record("the last event is not an end"); return }
        #expect(e.error == "killed by SIGKILL")
    }

    @Test("problems under run name the reporter by its script and pid, and the activities by their titles")
    func problemsNameTheReporter() throws {
        let folder = try TemporaryFolder()
        let script = try folder.file(
            "steps.sh",
            contents: """
                #!/bin/sh
                activity emit end "$ACTIVITY_PARENT" --status failure
                a=$(activity emit begin "Alpha"); b=$(activity emit begin "Beta" --parent "$a")
                activity emit end "$a"; activity emit end "$b"
                """, executable: true)
        let log = folder.url.appendingPathComponent("run.log")
        let result = try CommandRunner.activity(
            ["run", "--mode", "plain", "--log-file", log.path, "--", script.path])
        #expect(result.status == 0)
        let shown = result.standardError
        #expect(shown.contains("warning: reporter steps.sh (pid "), "\(shown)")
        #expect(shown.contains("), its line 1: a reporter sent end for the run's own activity"), "\(shown)")
        #expect(
            shown.range(
                of: #""Alpha" \([0-9a-f]+\.[0-9]+\) ended while its child "Beta" \("#, options: .regularExpression)
                != nil
        )
        let recorded = try String(contentsOf: log, encoding: .utf8)
        #expect(recorded.contains("problem source=\"reporter steps.sh (pid "), "\(recorded)")
    }

    @Test("a command that does not exist: 127; one that cannot be executed: 126")
    func notFound() throws {
        let (missing, log) = try run(["no-such-command-for-activity"])
        #expect(missing.status == 127)
        #expect(missing.standardError.hasSuffix("activity run: no-such-command-for-activity: command not found\n"))
        #expect(log.events.count == 2)
        let folder = try TemporaryFolder()
        let script = try folder.file("script.sh", contents: "#!/bin/sh\necho hi\n")
        let (denied, _) = try run([script.path])
        #expect(denied.status == 126)
        #expect(denied.standardError.contains("cannot execute: Permission denied"))
        let interpreter = try folder.file("interp.sh", contents: "#!/no/such/interpreter\necho hi\n", executable: true)
        let (missingInterpreter, _) = try run([interpreter.path])
        #expect(missingInterpreter.status == 126)
        #expect(missingInterpreter.standardError.contains("cannot execute: its #! interpreter was not found"))
        let (directory, _) = try run([folder.url.path])
        #expect(directory.status == 126)
        #expect(directory.standardError.contains("\(folder.url.path): cannot execute: it is a directory"))
    }

    @Test("a script without a #! line runs with the shell, as a shell would run it")
    func scriptWithoutInterpreterLine() throws {
        let folder = try TemporaryFolder()
        let script = try folder.file("plain.sh", contents: "echo \"hello $1\"\n", executable: true)
        let (result, _) = try run([script.path, "world"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "hello world\n")
    }

    @Test("lots of output on both streams: nothing lost, nothing reordered within a stream")
    func output() throws {
        let program = #"BEGIN { for (i = 1; i <= 20000; i++) { print "out " i; print "err " i > "/dev/stderr" } }"#
        let (result, _) = try run(["awk", program])
        #expect(result.status == 0)
        let out = result.standardOutput.split(separator: "\n")
        let err = result.standardError.split(separator: "\n").filter { $0.hasPrefix("err ") }
        #expect(out.count == 20000)
        #expect(err.count == 20000)
        #expect(out == (1...20000).map { "out \($0)"[...] })
        #expect(err == (1...20000).map { "err \($0)"[...] })
    }

    @Test("grandchildren report under the command; a reporter that dies leaves only its own activities abandoned")
    func nesting() throws {
        let script = """
            outer=$(activity emit begin Outer)
            export ACTIVITY_PARENT=$outer
            sh -c 'inner=$(activity emit begin Inner); activity emit end "$inner"'
            sh -c 'activity emit begin Orphan >/dev/null; kill -KILL $$'
            activity emit end "$outer"
            """
        let (result, log) = try run(["sh", "-c", script])
        #expect(result.status == 0)
        Golden.check(log.normalized, named: "run-nesting.jsonl")
        let root = try #require(log.events.first?.id)
        let outer = try #require(log.begin(titled: "Outer"))
        #expect(outer.parent == root)
        #expect(log.begin(titled: "Inner")?.parent == outer.id)
        let orphan = try #require(log.begin(titled: "Orphan"))
        #expect(log.end(of: orphan.id)?.status == .abandoned)
        #expect(log.end(of: outer.id)?.status == .success)
    }

    @Test("the private socket: a 0700 directory, removed afterwards; the environment names it and the parent")
    func socket() throws {
        let (result, log) = try run([
            "sh", "-c", #"p=${ACTIVITY_SINK#unix:}; echo "$p"; stat -c %a "$(dirname "$p")"; echo "$ACTIVITY_PARENT""#,
        ])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasSuffix("/sink"))
        #expect(lines[1] == "700")
        #expect(!FileManager.default.fileExists(atPath: lines[0]))
        #expect(!FileManager.default.fileExists(atPath: (lines[0] as NSString).deletingLastPathComponent))
        _ = log
        #expect(lines[2].hasSuffix(".run"))
    }

    @Test("after the command exits, reporters still connected get the grace, then are abandoned")
    func grace() throws {
        let folder = try TemporaryFolder()
        let pidFile = folder.url.appendingPathComponent("pid").path
        // A daemon that keeps its connection (and the output pipes) open.
        let daemon = try folder.file(
            "daemon.py",
            contents: """
                import os, socket, time
                os.closerange(3, 1024)  # what the test runner leaked into its children
                s = socket.socket(socket.AF_UNIX)
                s.connect(os.environ["ACTIVITY_SINK"][5:])
                s.sendall(b'{"v":1,"type":"begin","id":"daemon","title":"Daemon"}\\n')
                open(os.environ["READY_FILE"], "w").close()
                time.sleep(30)
                """)
        let readyFile = folder.url.appendingPathComponent("ready").path
        // The command exits only once the daemon has reported, however slowly python starts.
        let script =
            "READY_FILE=\(readyFile) python3 \(daemon.path) & echo $! > \(pidFile); "
            + "i=0; while [ ! -e \(readyFile) ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done"
        let started = Date()
        let (result, log) = try run(["sh", "-c", script], options: ["--grace", "0.2"])
        let pid = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        kill(pid_t(pid)!, SIGKILL)
        #expect(result.status == 0)
        #expect(Date().timeIntervalSince(started) < 10)
        let daemonBegin = try #require(log.begin(titled: "Daemon"))
        #expect(log.end(of: daemonBegin.id)?.status == .abandoned)
    }

    @Test("SIGTERM to activity reaches the command, which decides how it ends")
    func forwarding() throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("out")
        let pid = try CommandRunner.spawn(
            CommandRunner.activity,
            [
                "run", "--mode", "jsonl", "sh", "-c",
                #"trap 'echo got TERM; exit 5' TERM; echo ready; while :; do sleep 0.05; done"#,
            ],
            environment: CommandRunner.baseEnvironment(), stdin: "/dev/null", stdout: out.path,
            stderr: folder.url.appendingPathComponent("err").path)
        #expect(Poll.file(out.path, contains: "ready", timeout: 900))
        kill(pid, SIGTERM)
        let status = CommandRunner.wait(pid, timeout: 60, what: "activity run")
        #expect(status.code == 5 && !status.killed)
        #expect(try String(contentsOf: out, encoding: .utf8) == "ready\ngot TERM\n")
    }

    @Test("Examples/shell/build.sh under activity run")
    func shellExample() throws {
        let (result, log) = try run([Repository.path("Examples/shell/build.sh")])
        #expect(result.status == 0)
        Golden.check(result.standardOutput, named: "run-shell-example.stdout")
        // The command's title is its command line: the checkout's own path, which differs per clone.
        let normalized = log.normalized.replacingOccurrences(of: Repository.root.path, with: "$REPOSITORY")
        Golden.check(normalized, named: "run-shell-example.jsonl")
        #expect(log.otherLines.contains("check: 1 warning"))
        #expect(!log.events.contains { if case .end(let e) = $0 { e.status == .abandoned } else { false } })
    }
}

@Suite("activity run in a terminal")
struct RunTerminalTests {
    @Test("the command gets the keyboard; Ctrl-C reaches it; the display ends with the outcome, cursor shown")
    func keyboardAndInterrupt() throws {
        let pane = try TmuxPane(width: 100, height: 24)
        let pidFile = pane.folder.url.appendingPathComponent("pid")
        // `exec sleep`, and Ctrl-C only once the script's process is `sleep`: dash starts a
        // command with vfork(2), and a SIGINT that reaches the child between the vfork and its
        // exec is lost (the child ignores the parent's signals until it execs), while dash itself
        // defers it until the command ends. Pressed right after "got bob", Ctrl-C then sometimes
        // did nothing for 30 seconds, on a busy machine.
        let script = try pane.folder.file(
            "ask.sh",
            contents: """
                echo $$ > \(pidFile.path)
                id=$(activity emit begin Waiting --total 10)
                activity emit progress "$id" --completed 3
                read answer
                echo "got $answer"
                exec sleep 30
                """)
        try pane.type("activity run -- sh \(script.path)")
        #expect(try pane.waitFor("Waiting"))
        try pane.type("bob")
        #expect(try pane.waitFor("got bob"))
        let pid = try #require(
            Int((try String(contentsOf: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        let sleeping = Poll.until { (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) == "sleep\n" }
        #expect(sleeping, "the script never ran sleep")
        try pane.press("C-c")
        // Ended by SIGINT like its command, as the shell sees once its prompt is back.
        try pane.waitForLastLine("$")
        try pane.type("echo EXIT=$?")
        #expect(try pane.waitFor("EXIT=130"))
        #expect(pane.cursorVisible)
        let screen = try pane.screen()
        #expect(screen.contains("killed by SIGINT"))
        #expect(screen.contains("? Waiting") || screen.contains("1 abandoned"))
    }
}

@Suite("activity run: peers of another user")
struct RunPeerTests {
    @Test(
        "a reporter running as another user is refused, even when the directory is opened up",
        .enabled(if: getuid() == 0, "needs root to run a reporter as another user")
    )
    func otherUser() throws {
        let folder = try TemporaryFolder()
        let intruder = try folder.file(
            "intruder.py",
            contents: """
                import os, socket
                path = os.environ["ACTIVITY_SINK"][5:]
                os.chmod(os.path.dirname(path), 0o755)
                os.chmod(path, 0o777)
                os.closerange(3, 1024)
                os.setgid(65534)
                os.setuid(65534)
                s = socket.socket(socket.AF_UNIX)
                s.connect(path)
                try:
                    s.sendall(b'{"v":1,"type":"begin","id":"intruder","title":"Injected"}\\n')
                except OSError:
                    pass  # refused before the line was sent
                s.close()
                """)
        let result = try CommandRunner.activity(["run", "--mode", "jsonl", "--", "python3", intruder.path])
        #expect(result.status == 0, "\(result.standardError)")
        let log = EventLog(result.standardError)
        #expect(log.begin(titled: "Injected") == nil)
        #expect(
            log.events.contains {
                if case .log(let l) = $0 {
                    l.level == .warning && l.message.hasPrefix("refused a reporter of another user")
                } else {
                    false
                }
            })
    }
}
