import Foundation
import TestSupport
import Testing

/// `activity run` on a terminal whose reader takes everything at once, many times over, on a
/// loaded machine: every run ends (issue 27: under two busy loops, some runs of
/// `activity run --mode tty -- sh -c 'seq 1 100000'` printed everything and never exited).
@Suite("activity run on a pseudo-terminal exits")
struct PseudoTerminalExitTests {
    @Test("150 runs of seq on a 100x30 pty read as fast as possible, under two busy loops, all exit")
    func everyRunExits() throws {
        // 2,000 lines a run: the end of a run, where the hang was seen, comes 150 times in
        // about 30 s; a run that has not exited after 30 s is reported with what every thread
        // of it waits in, and fails the test.
        let result = try Python.run(
            "pty_run_exits.py", [CommandRunner.activity, "150", "2000", "30"], timeout: 600)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("ok 150 runs"), "\(result.standardOutput)")
    }

    @Test("200 runs on a pty resized thousands of times a run (a SIGWINCH each time), all exit")
    func everyResizedRunExits() throws {
        // The signal handler allocated in a debug build; a SIGWINCH that came while the main
        // thread was in malloc waited on the allocator's lock for ever: 5 of 10 runs hung.
        let result = try Python.run(
            "pty_run_signalled.py", [CommandRunner.activity, "200", "2000", "30", "winch"], timeout: 600)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("ok 200 runs"), "\(result.standardOutput)")
    }

    @Test("60 runs sent SIGTSTP thousands of times a run (Ctrl-Z, in an orphaned group), all exit")
    func everyStoppedRunExits() throws {
        // The same allocation in the Ctrl-Z handler: the process neither stopped nor went on
        // (3 of 8 runs), as a Ctrl-Z that does not stop the job.
        let result = try Python.run(
            "pty_run_signalled.py", [CommandRunner.activity, "60", "20000", "30", "tstp"], timeout: 600)
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("ok 60 runs"), "\(result.standardOutput)")
    }

    /// The program of a `pty.fork()` parent, as a terminal emulator's: `activity` leads the
    /// pty's session, an orphaned process group with no shell to continue it once stopped.
    /// Prints what it read, then "status N"; exits 1 when `activity` has not exited in 30 s.
    static let ptyParent = """
        import os, pty, select, sys, time
        pid, master = pty.fork()
        if pid == 0:
            os.execv(sys.argv[1], sys.argv[1:])
        output, status, deadline = b"", None, time.monotonic() + 30
        while status is None and time.monotonic() < deadline:
            if select.select([master], [], [], 0.05)[0]:
                try:
                    output += os.read(master, 65536)
                except OSError:
                    pass
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status = code
        if status is None:
            with open(f"/proc/{pid}/wchan") as wchan:
                print("activity had not exited after 30 s, waiting in", wchan.read())
            os.kill(pid, 9)
            sys.exit(1)
        print(output.decode(errors="replace"))
        print("status", os.waitstatus_to_exitcode(status))
        """

    @Test("a command that stops itself, under activity with no job-control shell above it, is continued")
    func stopInOrphanedGroup() throws {
        // The command stops as Ctrl-Z would stop it; activity used to stop itself by SIGSTOP
        // in turn, and waited for ever for a SIGCONT nobody sends (in do_signal_stop).
        let result = try CommandRunner.run(
            "/usr/bin/env",
            [
                "python3", "-c", Self.ptyParent, CommandRunner.activity, "run", "--mode", "tty", "--", "sh", "-c",
                "echo stop''ping; kill -TSTP $$; echo contin''ued",
            ])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("continued"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("status 0"), "\(result.standardOutput)")
    }
}
