import ActivityWire
import Foundation
import TestSupport
import Testing

/// `activity run` and `activity emit` when the world around them is hostile: inherited signal
/// dispositions, odd `TMPDIR`s, signals nobody expects, exhausted descriptors, stalled readers.
@Suite("activity run and emit under stress")
struct RunRobustnessTests {
    /// Waits until `path` exists (a child's sign of life); the deadline only bounds a broken run.
    func waitForFile(_ path: String, within seconds: Double = 30) -> Bool {
        Poll.until(timeout: seconds) { (try? String(contentsOfFile: path, encoding: .utf8))?.hasSuffix("\n") ?? false }
    }

    @Test("an inherited SIGCHLD set to SIG_IGN does not turn exit statuses into 127")
    func ignoredSIGCHLD() throws {
        let script = """
            import os, signal, sys
            signal.signal(signal.SIGCHLD, signal.SIG_IGN)
            os.execv(sys.argv[1], sys.argv[1:])
            """
        let result = try CommandRunner.run(
            "/usr/bin/env",
            ["python3", "-c", script, CommandRunner.activity, "run", "--mode", "plain", "--", "sh", "-c", "exit 3"])
        #expect(result.status == 3)
    }

    @Test(
        "output into a pipe with a sequence left open before its line feed passes whole, with a binary line after it",
        arguments: ["tty", "plain"])
    func openSequenceBeforeLineFeed(_ mode: String) throws {
        // `ESC 7` (what `tput sc` writes) left the line's newline inside a sequence, and the
        // tail kept for the command's activity trapped on it.
        let script = #"printf 'saved\0337\n'; printf 'raw\000\377\376\n'; printf 'after\n'"#
        let result = try CommandRunner.activity(["run", "--mode", mode, "--", "sh", "-c", script])
        #expect(result.status == 0, "\(result.standardError)")
        let expected = Array("saved\u{1B}7\nraw".utf8) + [0, 0xFF, 0xFE, 0x0A] + Array("after\n".utf8)
        #expect(Array(result.standardOutputData) == expected)
    }

    @Test("a relative TMPDIR still gives a socket a child reaches after changing directory")
    func relativeTemporaryDirectory() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        let result = try CommandRunner.activity(
            ["run", "--mode", "jsonl", "--", "sh", "-c", "cd / && activity emit log 'from elsewhere'"],
            environment: ["TMPDIR": "tmp"], currentDirectory: folder.url)
        #expect(result.status == 0)
        #expect(!result.standardError.contains("event not sent"))
        let log = EventLog(result.standardError)
        #expect(log.events.contains { if case .log(let l) = $0 { l.message == "from elsewhere" } else { false } })
    }

    /// Starts `activity run -- sh -c 'record; exec sleep 60'`, sends `signal` once the command
    /// runs, and returns the result, the command's pid and the socket directory it was given.
    func signalled(_ signal: Int32) throws -> (CommandResult, pid_t, String) {
        let folder = try TemporaryFolder()
        let record = folder.url.appendingPathComponent("record").path
        let out = folder.url.appendingPathComponent("out").path
        let err = folder.url.appendingPathComponent("err").path
        let pid = try CommandRunner.spawn(
            CommandRunner.activity,
            [
                "run", "--mode", "plain", "--", "sh", "-c",
                #"echo "$$ $ACTIVITY_SINK" > "$0.tmp"; mv "$0.tmp" "$0"; exec sleep 60"#, record,
            ],
            environment: CommandRunner.baseEnvironment(["TMPDIR": folder.url.path]), stdin: "/dev/null",
            stdout: out, stderr: err)
        guard waitForFile(record) else {
            kill(pid, SIGKILL)
            Issue.record("the command did not start")
            return (CommandResult(status: -1, killed: false, standardOutput: "", standardError: ""), 0, "")
        }
        let fields = try String(contentsOfFile: record, encoding: .utf8).split(separator: " ")
        kill(pid, signal)
        let status = CommandRunner.wait(pid, timeout: 30, what: "activity run")
        let result = CommandResult(
            status: status.code, killed: status.killed, standardOutput: "",
            standardError: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
        let sink = String(fields[1].dropFirst("unix:".count).dropLast())
        return (result, pid_t(fields[0])!, String(sink.dropLast("/sink".count)))
    }

    @Test(
        "a catchable signal activity does not expect ends the command too, and the socket directory goes",
        arguments: [SIGUSR1, SIGQUIT, SIGUSR2, SIGALRM])
    func unexpectedSignal(_ signal: Int32) throws {
        let (result, child, directory) = try signalled(signal)
        // The command died of it, so activity ends by it too.
        #expect(result.killed && result.status == signal)
        #expect(kill(child, 0) != 0 && errno == ESRCH, "the command outlived activity run")
        #expect(!FileManager.default.fileExists(atPath: directory), "the socket directory was left behind")
        #expect(!result.standardError.contains("Crash"), "a crash report: \(result.standardError)")
    }

    @Test("socket directories of runs that were killed outright are removed by the next run")
    func staleDirectories() throws {
        let folder = try TemporaryFolder()
        // A process that has certainly exited: spawned and reaped here.
        let gone = try CommandRunner.spawn(
            "/bin/true", [], environment: [:], stdin: "/dev/null", stdout: "/dev/null", stderr: "/dev/null")
        _ = CommandRunner.wait(gone, timeout: 30, what: "true")
        let stale = folder.url.appendingPathComponent("activity-\(gone)-AbC123")
        let live = folder.url.appendingPathComponent("activity-\(getpid())-XyZ789")
        let foreign = folder.url.appendingPathComponent("activity-\(gone)-keepme")
        for directory in [stale, live, foreign] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        }
        _ = FileManager.default.createFile(atPath: stale.appendingPathComponent("sink").path, contents: Data())
        // Something other than a socket: not ours to remove.
        _ = FileManager.default.createFile(atPath: foreign.appendingPathComponent("notes.txt").path, contents: Data())
        let result = try CommandRunner.activity(
            ["run", "--mode", "plain", "--", "true"], environment: ["TMPDIR": folder.url.path])
        #expect(result.status == 0)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: live.path))
        #expect(FileManager.default.fileExists(atPath: foreign.path))
    }

    @Test(
        "out of file descriptors: reporters wait, one warning, every event arrives, even with no grace after the command",
        arguments: [[], ["--grace", "0"]])
    func descriptorLimit(grace: [String]) throws {
        // The reporters raise their own limit back; only `activity` runs with 40 descriptors.
        let reporters = """
            import os, resource, socket
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
            path = os.environ["ACTIVITY_SINK"][len("unix:"):]
            connections = []
            for i in range(100):
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(path)
                s.sendall(('{"v":1,"type":"log","message":"reporter %d"}\\n' % i).encode())
                connections.append(s)
            for s in connections:
                s.close()
            """
        let result = try CommandRunner.run(
            "/bin/sh",
            [
                "-c", #"ulimit -Sn 40 && exec "$@""#, "sh", CommandRunner.activity, "run", "--mode", "jsonl",
            ] + grace + ["--", "python3", "-c", reporters])
        #expect(result.status == 0)
        let log = EventLog(result.standardError)
        let messages = Set(log.events.compactMap { if case .log(let l) = $0 { l.message } else { nil } })
        for index in 0..<100 { #expect(messages.contains("reporter \(index)")) }
        let warnings = messages.filter { $0.hasPrefix("cannot accept more reporters") }
        #expect(warnings.count == 1)
    }

    @Test("activity emit gives up on a reader that never reads, warns, and exits 0")
    func emitStalledPipe() throws {
        // A pipe filled to the brim, that nobody reads, on fd 3 of emit.
        let script = """
            import fcntl, os, subprocess, sys
            r, w = os.pipe()
            fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) | os.O_NONBLOCK)
            try:
                while True:
                    os.write(w, b"x" * 4096)
            except BlockingIOError:
                pass
            fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) & ~os.O_NONBLOCK)
            env = dict(os.environ, ACTIVITY_SINK="fd:%d" % w, ACTIVITY_TIMEOUT_MS="200")
            done = subprocess.run([sys.argv[1], "emit", "log", "hello"], env=env, pass_fds=(w,),
                                  capture_output=True, timeout=30)
            sys.stdout.write("%d\\n%s" % (done.returncode, done.stderr.decode()))
            """
        let result = try CommandRunner.run("/usr/bin/env", ["python3", "-c", script, CommandRunner.activity])
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.first == "0")
        #expect(lines.dropFirst().count == 1)
        #expect(lines.last?.contains("within 0.2 s") == true)
    }

    @Test("activity emit gives up on a listener that never accepts, warns, and exits 0")
    func emitListenerNeverAccepts() throws {
        let script = """
            import os, socket, subprocess, sys, tempfile
            folder = tempfile.mkdtemp()
            path = os.path.join(folder, "sink")
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(path)
            listener.listen(0)
            # Fill the backlog: further connections are refused with EAGAIN, or would block.
            waiting = []
            while True:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.setblocking(False)
                try:
                    s.connect(path)
                    waiting.append(s)
                except BlockingIOError:
                    break
            env = dict(os.environ, ACTIVITY_SINK="unix:" + path, ACTIVITY_TIMEOUT_MS="200")
            done = subprocess.run([sys.argv[1], "emit", "log", "hello"], env=env, capture_output=True, timeout=30)
            sys.stdout.write("%d\\n%s" % (done.returncode, done.stderr.decode()))
            """
        let result = try CommandRunner.run("/usr/bin/env", ["python3", "-c", script, CommandRunner.activity])
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.first == "0")
        #expect(lines.dropFirst().count == 1)
        #expect(lines.last?.contains("no answer within 0.2 s") == true)
    }

    @Test("activity emit never writes into a data file that happens to hold the sink's descriptor")
    func emitDescriptorOnDataFile() throws {
        let folder = try TemporaryFolder()
        let data = try folder.file("data.csv", contents: "precious,data\n")
        let result = try CommandRunner.run(
            "/bin/sh", ["-c", #"exec 3<>"$1"; exec "$2" emit log hello"#, "sh", data.path, CommandRunner.activity],
            environment: ["ACTIVITY_SINK": "fd:3"])
        #expect(result.status == 0)
        #expect(try String(contentsOf: data, encoding: .utf8) == "precious,data\n")
        #expect(result.standardError.contains("not opened for appending"))
    }
}
