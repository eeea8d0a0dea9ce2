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
}
