import Foundation
import Testing

/// libactivity as the tests build, install and run it: the package's paths, `make` on the C
/// library into a build area beside the test runner, and programs run to their end. Shared by the
/// C library's suites and the end-to-end tests that link the installed library.
package enum LibactivityBuild {
    /// The package root, found from this file (source-tree fixtures only; never build products).
    package static let packageRoot = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    package static let libraryDirectory = packageRoot.appending(path: "Sources/CActivity")
    package static let examples = packageRoot.appending(path: "Examples")
    package static let schema = packageRoot.appending(path: "Schemas/activity-event.v1.schema.json")

    /// A folder beside the test runner for make's outputs: a build product, reused between runs,
    /// so make only rebuilds what changed.
    package static let buildArea = CommandRunner.binFolder.appending(path: "libactivity-tests")

    /// Finds an executable on PATH (and in ~/.cargo/bin, where rustup puts rustc).
    package static func executable(_ name: String) -> String? {
        let home = ProcessInfo.processInfo.environment["HOME"]
        return executableOnPath(name, alsoIn: home.map { ["\($0)/.cargo/bin"] } ?? [])
    }

    /// The Swift toolchain's clang: the one beside the `swift` that runs these tests (symbolic links
    /// resolved), never the first `clang` on PATH, which may be one installed by hand.
    package static func toolchainClang() throws -> String {
        let swift = try #require(executable("swift"), "swift is not on PATH")
        let clang = URL(filePath: swift).resolvingSymlinksInPath().deletingLastPathComponent().appending(path: "clang")
        try #require(FileManager.default.isExecutableFile(atPath: clang.path), "no clang beside \(swift)")
        return clang.path
    }

    /// What a finished process left behind.
    package struct Outcome: Sendable {
        package var status: Int32
        package var output: String
        package var error: String
        package var combined: String { output + (error.isEmpty ? "" : "\n--- stderr ---\n" + error) }
    }

    /// Runs a program to its end, with ACTIVITY_* variables of the caller removed and `environment` added.
    ///
    /// Through TestSupport's `posix_spawn`, with every signal unblocked and a `waitpid` on the
    /// program alone: a test thread may have signals blocked, which Foundation's `Process` passes
    /// on (a Python pool's workers then never see their ends), and `Process` also waits for every
    /// descendant holding its pipes. Descriptors above 2 are closed in the child, as `Process`
    /// closes them.
    package static func run(
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
    package static func offPool<R: Sendable>(_ body: @escaping @Sendable () throws -> R) async throws -> R {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    package static func make(_ arguments: [String]) throws -> Outcome {
        let make = try #require(executable("make"), "make is not installed")
        return try run(make, ["-C", libraryDirectory.path] + arguments)
    }

    /// The library built and installed once per test run (make keeps it up to date between runs).
    package static let installed: Result<URL, BuildFailure> = {
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

    package struct BuildFailure: Error, Sendable, CustomStringConvertible {
        package var output: String
        package var description: String { "make install failed:\n\(output)" }
    }

    /// The installation prefix, or a failed test with make's output. Blocks until the install
    /// is done: for code already off the task pool (``offPool(_:)``).
    package static func prefix() throws -> URL {
        try installed.get()
    }

    /// The installation prefix, awaited: the install runs once on a thread of its own, and the
    /// tests that need it wait without holding a thread of the task pool (on a two-core machine
    /// the pool has two, and tests blocked on a minutes-long build starve every other test).
    package static func installedPrefix() async throws -> URL {
        try await installing.value
    }

    private static let installing = Task { try await offPool { try installed.get() } }

}
