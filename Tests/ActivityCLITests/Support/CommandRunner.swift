import Foundation
import Testing

/// Runs the built `activity` executable (or any command) and collects what it did.
struct CommandResult {
    var status: Int32
    /// Whether `status` is a signal number rather than an exit code.
    var killed: Bool
    var standardOutput: String
    var standardError: String
}

enum CommandRunner {
    /// The folder of the built products: the test runner sits in it.
    static let binFolder: URL = {
        var url = Bundle.main.bundleURL
        if url.pathExtension == "xctest" { url.deleteLastPathComponent() }
        return url
    }()

    /// The `activity` executable.
    static var activity: String { binFolder.appendingPathComponent("activity").path }

    /// `PATH` with the build folder first, so scripts find `activity`.
    static var path: String {
        binFolder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    /// The environment tests start from: no inherited sink or parent, the build folder on `PATH`,
    /// no terminal colour settings.
    static func baseEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["ACTIVITY_SINK", "ACTIVITY_PARENT", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE"] {
            environment[key] = nil
        }
        environment["PATH"] = path
        environment["TERM"] = "dumb"
        return environment.merging(extra) { $1 }
    }

    /// Runs `activity ARGUMENTS`.
    static func activity(
        _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
        currentDirectory: URL? = nil, timeout: Double = 60
    ) throws -> CommandResult {
        try run(activity, arguments, input: input, environment: environment, currentDirectory: currentDirectory,
            timeout: timeout)
    }

    /// Runs a program with its output captured through files (no pipe can fill up and block it).
    static func run(
        _ executable: String, _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
        currentDirectory: URL? = nil, timeout: Double = 60
    ) throws -> CommandResult {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("stdout")
        let err = folder.url.appendingPathComponent("stderr")
        let inputFile = folder.url.appendingPathComponent("stdin")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        _ = FileManager.default.createFile(atPath: inputFile.path, contents: input ?? Data())
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = baseEnvironment(environment)
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(2000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            Issue.record("\(executable) \(arguments) did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus, killed: process.terminationReason == .uncaughtSignal,
            standardOutput: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}

/// A folder under the system's temporary directory, removed when the value goes away.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("activity-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String, contents: String, executable: Bool = false) throws -> URL {
        let file = url.appendingPathComponent(name)
        try contents.write(to: file, atomically: true, encoding: .utf8)
        if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path) }
        return file
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
