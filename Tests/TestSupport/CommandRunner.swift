import Foundation
import Testing

/// Runs the built `activity` executable (or any command) and collects what it did.
package struct CommandResult: Sendable {
    package var status: Int32
    /// Whether `status` is a signal number rather than an exit code.
    package var killed: Bool
    package var standardOutput: String
    package var standardError: String
    /// Standard output byte for byte (`standardOutput` repairs invalid UTF-8).
    package var standardOutputData = Data()

    package init(
        status: Int32, killed: Bool, standardOutput: String, standardError: String, standardOutputData: Data = Data()
    ) {
        self.status = status
        self.killed = killed
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.standardOutputData = standardOutputData
    }
}

package enum CommandRunner {
    /// The folder of the built products: the test runner sits in it.
    package static let binFolder: URL = {
        var url = Bundle.main.bundleURL
        if url.pathExtension == "xctest" { url.deleteLastPathComponent() }
        return url
    }()

    /// The `activity` executable.
    package static var activity: String { binFolder.appendingPathComponent("activity").path }

    /// `PATH` with the build folder first, so scripts find `activity`.
    package static var path: String {
        binFolder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    /// The environment tests start from: no inherited sink or parent, the build folder on `PATH`,
    /// no terminal colour settings, no history (a test that wants one names its file).
    package static func baseEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        // CI (plain lines) and the locale are the machine's, not the test's: the same run here
        // and on a CI runner.
        for key in [
            "ACTIVITY_SINK", "ACTIVITY_PARENT", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "CI", "LC_ALL", "LC_CTYPE",
        ] {
            environment[key] = nil
        }
        environment["LANG"] = "C.UTF-8"
        environment["PATH"] = path
        environment["TERM"] = "dumb"
        environment["ACTIVITY_HISTORY"] = "off"
        return environment.merging(extra) { $1 }
    }

    /// Runs `activity ARGUMENTS`.
    package static func activity(
        _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
        currentDirectory: URL? = nil, timeout: Double = 60
    ) throws -> CommandResult {
        try run(
            activity, arguments, input: input, environment: environment, currentDirectory: currentDirectory,
            timeout: timeout)
    }

    /// Runs a program with its output captured through files (no pipe can fill up and block it).
    ///
    /// Spawned with `posix_spawn` and waited for with `waitpid`: Foundation's `Process` also waits
    /// for descriptors that daemons started by the program (tmux) inherit.
    package static func run(
        _ executable: String, _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
        currentDirectory: URL? = nil, timeout: Double = 60
    ) throws -> CommandResult {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("stdout").path
        let err = folder.url.appendingPathComponent("stderr").path
        let inputFile = folder.url.appendingPathComponent("stdin").path
        _ = FileManager.default.createFile(atPath: inputFile, contents: input ?? Data())
        let pid = try spawn(
            executable, arguments, environment: baseEnvironment(environment), directory: currentDirectory?.path,
            stdin: inputFile, stdout: out, stderr: err)
        let status = wait(pid, timeout: timeout, what: "\(executable) \(arguments)")
        let output = FileManager.default.contents(atPath: out) ?? Data()
        return CommandResult(
            status: status.code, killed: status.killed,
            standardOutput: String(decoding: output, as: UTF8.self),
            standardError: String(decoding: FileManager.default.contents(atPath: err) ?? Data(), as: UTF8.self),
            standardOutputData: output)
    }

    /// Starts a program with its standard streams on files; returns its pid.
    ///
    /// `closesOtherDescriptors` closes every descriptor above 2 in the child, as Foundation's
    /// `Process` does: a descriptor another test opens meanwhile without close-on-exec is then
    /// never the program's (a test of "descriptor 77 is not open" found one open).
    package static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
        stdin: String, stdout: String, stderr: String, closesOtherDescriptors: Bool = false
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if closesOtherDescriptors { _ = spawnCloseFrom(&actions, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        // The dispositions a shell gives a program it starts: a signal this test process
        // ignores or handles (SIGPIPE, say) is at its default in the child.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [
            SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2,
            SIGWINCH,
        ] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var executable = executable
        var arguments = arguments
        if let directory {
            arguments = ["-c", #"cd "$0" && exec "$@""#, directory, executable] + arguments
            executable = "/bin/sh"
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        return pid
    }

    /// Waits for a child; kills it when `timeout` passes. Returns the exit code, or the signal.
    package static func wait(_ pid: pid_t, timeout: Double, what: String) -> (code: Int32, killed: Bool) {
        var status: Int32 = 0
        // An answer: the child ended, or waitpid failed (-1).
        func reaped() -> pid_t? {
            let result = waitpid(pid, &status, WNOHANG)
            return result == pid || (result < 0 && errno != EINTR) ? result : nil
        }
        var result = Poll.answer(timeout: timeout, every: 0.002, reaped)
        if result == nil {
            Issue.record("\(what) did not finish within \(timeout) s")
            kill(pid, SIGKILL)
            result = Poll.answer(timeout: 600, every: 0.002, reaped)
        }
        guard result == pid else { return (-1, false) }
        let signal = status & 0x7f
        return signal == 0 ? ((status >> 8) & 0xff, false) : (signal, true)
    }
}

/// Writes a file, an executable's text perhaps (`executable`: mode 755), through a close-on-exec
/// descriptor: a child another test spawns meanwhile must not inherit it, or running the file
/// fails with "Text file busy".
package func writeProgram(_ text: String, to file: URL, executable: Bool = false) throws {
    guard let stream = fopen(file.path, "wbe") else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    let bytes = Array(text.utf8)
    let written = fwrite(bytes, 1, bytes.count, stream)
    guard fclose(stream) == 0, written == bytes.count else { throw POSIXError(.EIO) }
    if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path) }
}

/// A folder under the system's temporary directory, removed when the value goes away.
package final class TemporaryFolder {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("activity-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    package func file(_ name: String, contents: String, executable: Bool = false) throws -> URL {
        let file = url.appendingPathComponent(name)
        try writeProgram(contents, to: file, executable: executable)
        return file
    }

    /// The bytes of the file `name` in the folder.
    package func read(_ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: url.appendingPathComponent(name)))
    }

    /// A bash script that writes `begin`, waits until the file `gate` exists (at most a
    /// minute), then writes `end`: a producer whose activity lasts as long as a test needs.
    package func gatedProducer(begin: String, end: String) throws -> (script: URL, gate: String) {
        let gate = url.appendingPathComponent("gate").path
        let script = try file(
            "producer.sh",
            contents: """
                #!/bin/bash
                echo '\(begin)'
                i=0
                while [ ! -e '\(gate)' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done
                echo '\(end)'
                """, executable: true)
        return (script, gate)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which the Glibc module
/// does not import.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
