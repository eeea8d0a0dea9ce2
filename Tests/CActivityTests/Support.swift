import ActivityWire
import Foundation
import TestSupport
import Testing

/// Paths, processes and stream checks shared by the libactivity suites.
enum Support {
    /// The package root, found from this file (source-tree fixtures only; never build products).
    static let packageRoot = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let libraryDirectory = packageRoot.appending(path: "Sources/CActivity")
    static let examples = packageRoot.appending(path: "Examples")
    static let schema = packageRoot.appending(path: "Schemas/activity-event.v1.schema.json")

    /// A folder beside the test runner for make's outputs: a build product, reused between runs,
    /// so make only rebuilds what changed.
    static let buildArea = CommandRunner.binFolder.appending(path: "libactivity-tests")

    /// Finds an executable on PATH (and in ~/.cargo/bin, where rustup puts rustc).
    static func executable(_ name: String) -> String? {
        let home = ProcessInfo.processInfo.environment["HOME"]
        return executableOnPath(name, alsoIn: home.map { ["\($0)/.cargo/bin"] } ?? [])
    }

    /// The Swift toolchain's clang: the one beside the `swift` that runs these tests (symbolic links
    /// resolved), never the first `clang` on PATH, which may be one installed by hand.
    static func toolchainClang() throws -> String {
        let swift = try #require(executable("swift"), "swift is not on PATH")
        let clang = URL(filePath: swift).resolvingSymlinksInPath().deletingLastPathComponent().appending(path: "clang")
        try #require(FileManager.default.isExecutableFile(atPath: clang.path), "no clang beside \(swift)")
        return clang.path
    }

    /// What a finished process left behind.
    struct Outcome: Sendable {
        var status: Int32
        var output: String
        var error: String
        var combined: String { output + (error.isEmpty ? "" : "\n--- stderr ---\n" + error) }
    }

    /// Runs a program to its end, with ACTIVITY_* variables of the caller removed and `environment` added.
    ///
    /// Through TestSupport's `posix_spawn`, with every signal unblocked and a `waitpid` on the
    /// program alone: a test thread may have signals blocked, which Foundation's `Process` passes
    /// on (a Python pool's workers then never see their ends), and `Process` also waits for every
    /// descendant holding its pipes. Descriptors above 2 are closed in the child, as `Process`
    /// closes them.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil
    ) throws -> Outcome {
        let scratch = try TemporaryFolder()
        let outputPath = scratch.url.appending(path: "stdout").path
        let errorPath = scratch.url.appending(path: "stderr").path
        var merged = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ACTIVITY_") }
        merged.merge(environment) { $1 }
        let pid = try CommandRunner.spawn(
            executable, arguments, environment: merged, directory: directory?.path, stdin: "/dev/null",
            stdout: outputPath, stderr: errorPath, closesOtherDescriptors: true)
        let status = CommandRunner.wait(pid, timeout: 1800, what: "\(executable) \(arguments)")
        return Outcome(
            status: status.killed ? 128 + status.code : status.code,
            output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
            error: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }

    /// Runs blocking `body` (a build, a whole `make check`) on a thread of its own, so that it
    /// does not hold, for minutes, one of the few threads that run the other tests' tasks.
    static func offPool<R: Sendable>(_ body: @escaping @Sendable () throws -> R) async throws -> R {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    static func make(_ arguments: [String]) throws -> Outcome {
        let make = try #require(executable("make"), "make is not installed")
        return try run(make, ["-C", libraryDirectory.path] + arguments)
    }

    /// The library built and installed once per test run (make keeps it up to date between runs).
    static let installed: Result<URL, BuildFailure> = {
        let prefix = buildArea.appending(path: "prefix")
        do {
            let outcome = try make([
                "install", "BUILD=\(buildArea.appending(path: "build").path)", "PREFIX=\(prefix.path)",
            ])
            guard outcome.status == 0 else { return .failure(BuildFailure(output: outcome.combined)) }
            return .success(prefix)
        } catch {
            return .failure(BuildFailure(output: "\(error)"))
        }
    }()

    struct BuildFailure: Error, Sendable, CustomStringConvertible {
        var output: String
        var description: String { "make install failed:\n\(output)" }
    }

    /// The installation prefix, or a failed test with make's output. Blocks until the install
    /// is done: for code already off the task pool (``offPool(_:)``).
    static func prefix() throws -> URL {
        try installed.get()
    }

    /// The installation prefix, awaited: the install runs once on a thread of its own, and the
    /// tests that need it wait without holding a thread of the task pool (on a two-core machine
    /// the pool has two, and tests blocked on a minutes-long build starve every other test).
    static func installedPrefix() async throws -> URL {
        try await installing.value
    }

    private static let installing = Task { try await offPool { try installed.get() } }

    /// Decodes a whole stream with ActivityWire and applies the stream rules.
    static func check(_ bytes: [UInt8]) throws -> StreamReport {
        var reader = EventStreamReader(source: BytesSource(bytes))
        var validator = StreamValidator()
        var report = StreamReport()
        var lastLine = 0
        try reader.forEach { item in
            guard item.isLineStart else { return }
            lastLine = item.line
            report.lines += 1
            if item.bytes.count + 1 > WireLimits.maxProducedLineBytes { report.overlong += 1 }
            switch item.decoded {
            case .event(let event):
                report.events.append(event)
                report.raw.append(Array(item.bytes))
                report.diagnostics += validator.check(event, line: item.line)
            default:
                report.diagnostics.append(
                    item.decoded.diagnostic ?? Diagnostic(line: item.line, code: .invalidJSON, message: "not an event"))
            }
        }
        report.diagnostics += validator.finish(atLine: lastLine + 1)
        if let last = bytes.last, last != 0x0A { report.unterminated = true }
        return report
    }
}

/// What a stream turned out to hold.
struct StreamReport {
    var lines = 0
    var events: [ActivityEvent] = []
    /// Each event's line as written, without its newline.
    var raw: [[UInt8]] = []
    var diagnostics: [Diagnostic] = []
    var overlong = 0
    var unterminated = false

    func count(_ type: String) -> Int { events.filter { $0.typeName == type }.count }

    /// Every begin has its end, nothing else is wrong, and every line is whole and short enough.
    var isClean: Bool {
        diagnostics.isEmpty && overlong == 0 && !unterminated && count("begin") == count("end")
    }

    var summary: String {
        "\(lines) lines, \(count("begin")) begin, \(count("progress")) progress, \(count("log")) log, "
            + "\(count("end")) end; \(overlong) too long; diagnostics: "
            + diagnostics.prefix(5).map(\.description).joined(separator: "; ")
    }
}
