import ActivityWire
import Foundation
import TestSupport
import Testing

/// The examples, run end to end against the library as `make install` installs it.
@Suite("libactivity examples")
struct ExampleTests {
    /// Runs a built example with a file sink and returns what it wrote, checked by ActivityWire.
    private func runExample(
        _ executable: String, _ arguments: [String] = [], environment: [String: String] = [:],
        in folder: TemporaryFolder
    ) throws -> (LibactivityBuild.Outcome, StreamReport) {
        let sink = folder.url.appending(path: "events.jsonl")
        var environment = environment
        environment["ACTIVITY_SINK"] = "file:\(sink.path)"
        let outcome = try LibactivityBuild.run(executable, arguments, environment: environment)
        #expect(outcome.status == 0, "\(outcome.combined)")
        return (outcome, try Support.check(try folder.read("events.jsonl")))
    }

    @Test("pkg-config finds the installed library, header and flags")
    func pkgConfig() async throws {
        let prefix = try await LibactivityBuild.installedPrefix()
        let pkgConfig = try #require(LibactivityBuild.executable("pkg-config"), "pkg-config is not installed")
        let environment = ["PKG_CONFIG_PATH": prefix.appending(path: "lib/pkgconfig").path]
        let flags = try LibactivityBuild.run(pkgConfig, ["--cflags", "--libs", "activity"], environment: environment)
        #expect(flags.status == 0, "\(flags.combined)")
        #expect(flags.output.contains("-I\(prefix.appending(path: "include").path)"))
        #expect(flags.output.contains("-L\(prefix.appending(path: "lib").path) -lactivity"))
        let version = try LibactivityBuild.run(pkgConfig, ["--modversion", "activity"], environment: environment)
        let expected = try String(contentsOf: LibactivityBuild.packageRoot.appending(path: "VERSION"), encoding: .utf8)
        #expect(version.output == expected)
        for file in ["include/activity.h", "lib/libactivity.so.0", "lib/libactivity.so", "lib/libactivity.a"] {
            #expect(FileManager.default.fileExists(atPath: prefix.appending(path: file).path), "\(file)")
        }
    }

    @Test("make -C Examples/c O=DIR builds every example into DIR; the demo reports a clean stream")
    func cExample() async throws {
        let prefix = try await LibactivityBuild.installedPrefix()
        let folder = try TemporaryFolder()
        let make = try #require(LibactivityBuild.executable("make"), "make is not installed")
        let sources = LibactivityBuild.examples.appending(path: "c")
        let before = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
        let output = folder.url.appending(path: "out")
        let build = try LibactivityBuild.run(
            make, ["-C", sources.path, "O=\(output.path)", "CFLAGS=-O2 -Wall -Wextra -Werror"],
            environment: ["PKG_CONFIG_PATH": prefix.appending(path: "lib/pkgconfig").path])
        try #require(build.status == 0, "\(build.combined)")
        let examples = before.filter { $0.hasSuffix(".c") }.map { String($0.dropLast(2)) }
        #expect(examples.sorted() == ["cancel", "demo"])
        for example in examples {
            #expect(
                FileManager.default.isExecutableFile(atPath: output.appending(path: example).path),
                "\(example) was not built into O:\n\(build.combined)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() == before)
        let binary = output.appending(path: "demo").path
        let (outcome, report) = try runExample(binary, in: folder)
        #expect(report.isClean, "\(report.summary)")
        #expect(report.count("begin") == 7)
        #expect(report.count("log") == 1)
        #expect(outcome.output.hasPrefix("build id: "))
        let ends = report.events.compactMap { if case .end(let e) = $0 { e } else { nil } }
        #expect(ends.contains { $0.status == .failure && $0.error == "1 of 3 tests failed" })
        #expect(ends.contains { $0.completed == 1_048_576 && $0.total == .value(1_048_576) })
    }

    @Test("Examples/python drives the library through ctypes")
    func pythonExample() async throws {
        let prefix = try await LibactivityBuild.installedPrefix()
        let python = try #require(LibactivityBuild.executable("python3"), "python3 is not installed")
        let folder = try TemporaryFolder()
        let (outcome, report) = try runExample(
            python, [LibactivityBuild.examples.appending(path: "python/demo.py").path],
            environment: ["ACTIVITY_LIBRARY": prefix.appending(path: "lib/libactivity.so.0").path], in: folder)
        #expect(report.isClean, "\(report.summary)\n\(outcome.combined)")
        #expect(report.count("begin") == 7)
        let ends = report.events.compactMap { if case .end(let e) = $0 { e } else { nil } }
        #expect(ends.contains { $0.status == .failure && $0.error == "ConnectionError: connection reset by peer" })
        #expect(ends.contains { $0.status == .skipped && ($0.message ?? "").hasPrefix("rejected: invalid argument") })
        #expect(ends.contains { $0.completed == 40 && $0.total == .value(40) })
    }

    static let cargo = LibactivityBuild.executable("cargo")

    @Test(
        "Examples/rust, a cargo package (edition 2024), builds offline through pkg-config and reports",
        .enabled(if: cargo != nil, "cargo is not installed (Scripts/dependencies.sh lists it): Rust example skipped")
    )
    func rustExample() async throws {
        let cargo = try #require(Self.cargo)
        let prefix = try await LibactivityBuild.installedPrefix()
        let folder = try TemporaryFolder()
        let build = try LibactivityBuild.run(
            cargo,
            [
                "build", "--offline", "--locked", "--manifest-path",
                LibactivityBuild.examples.appending(path: "rust/Cargo.toml").path,
            ],
            environment: [
                "PKG_CONFIG_PATH": prefix.appending(path: "lib/pkgconfig").path,
                "CARGO_TARGET_DIR": folder.url.appending(path: "target").path, "RUSTFLAGS": "-D warnings",
            ])
        try #require(build.status == 0, "\(build.combined)")
        // The rpath from build.rs: it runs with no LD_LIBRARY_PATH.
        let binary = folder.url.appending(path: "target/debug/activity-demo").path
        let (outcome, report) = try runExample(binary, in: folder)
        #expect(report.isClean, "\(report.summary)")
        #expect(report.count("begin") == 3)
        #expect(outcome.output.hasPrefix("crunched under "))
        #expect(report.events.contains { if case .begin(let b) = $0 { b.cancellable } else { false } })
        let ends = report.events.compactMap { if case .end(let e) = $0 { e } else { nil } }
        #expect(ends.contains { $0.status == .failure && $0.error == "checksum mismatch in block 7" })
        #expect(ends.contains { $0.completed == 64 && $0.message == "all blocks checked" })
    }
}
