import Foundation
import TestSupport

/// The test scripts under `Tests/ActivityEndToEndTests/Scripts/`, run with `python3` from PATH.
enum Python {
    static func script(_ name: String) -> String {
        Repository.path("Tests/ActivityEndToEndTests/Scripts/\(name)")
    }

    static func run(_ name: String, _ arguments: [String], timeout: Double = 120) throws -> CommandResult {
        try CommandRunner.run("/usr/bin/env", ["python3", script(name)] + arguments, timeout: timeout)
    }

    /// Starts a long-running script (a test server); returns its pid.
    static func start(_ name: String, _ arguments: [String], in folder: TemporaryFolder) throws -> pid_t {
        try CommandRunner.spawn(
            "/usr/bin/env", ["python3", script(name)] + arguments, environment: CommandRunner.baseEnvironment(),
            stdin: "/dev/null", stdout: folder.url.appendingPathComponent("server.out").path,
            stderr: folder.url.appendingPathComponent("server.err").path)
    }

    /// Waits (at most `timeout` seconds) for a file a script writes when it is ready.
    static func waitForFile(_ path: String, timeout: Double = 30) -> String? {
        Poll.nonEmptyFile(path, timeout: timeout)
    }
}
