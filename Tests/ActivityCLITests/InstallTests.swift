import Foundation
import TestSupport
import Testing

/// `Scripts/install` from a clean clone into a temporary prefix, then everything used from the
/// installed files only, then `--uninstall`. (The clone is of the committed tree: what a user
/// gets.)
@Suite("Scripts/install", .serialized)
struct InstallTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs on a thread of its own: an install builds for minutes, and a test that waits that long
    /// must not hold one of the few threads that run the other tests' tasks.
    func run(
        _ command: String, _ arguments: [String], _ environment: [String: String] = [:]
    ) async throws
        -> CommandResult
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        try CommandRunner.run(
                            "/usr/bin/env", [command] + arguments, environment: environment, timeout: 1800)
                    })
            }
        }
    }

    @Test("install, use the command, the C library, the Python package, completions and man pages; uninstall")
    func installUseUninstall() async throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("source").path
        let prefix = folder.url.appendingPathComponent("prefix").path
        let cloned = try await run("git", ["clone", "--quiet", "--no-hardlinks", Self.root.path, source])
        try #require(cloned.status == 0, "\(cloned.standardError)")
        let installed = try await run("\(source)/Scripts/install", ["--prefix", prefix])
        try #require(installed.status == 0, "\(installed.standardError)")

        // The command, and the version the project states once.
        let version = try String(contentsOfFile: "\(source)/VERSION", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = try await run("\(prefix)/bin/activity", ["--version"])
        #expect(shown.standardOutput == "activity \(version)\n")

        // A C program built through pkg-config, shared and static, reporting into `activity run`.
        let pkgConfig = ["PKG_CONFIG_PATH": "\(prefix)/lib/pkgconfig"]
        #expect(try await run("pkg-config", ["--modversion", "activity"], pkgConfig).standardOutput == "\(version)\n")
        let program = try folder.file(
            "demo.c",
            contents: """
                #include <activity.h>
                #include <stddef.h>
                int main(void) {
                    activity *a = activity_begin(NULL, "Installed C", 2, NULL);
                    activity_advance(a, 2);
                    return activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL);
                }
                """)
        let flags = try await run("pkg-config", ["--cflags", "--libs", "activity"], pkgConfig).standardOutput
            .split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        let shared = folder.url.appendingPathComponent("demo-shared").path
        let compiled = try await run(
            "cc", ["-Wall", "-Werror", program.path, "-o", shared, "-Wl,-rpath,\(prefix)/lib"] + flags)
        #expect(compiled.status == 0, "\(compiled.standardError)")
        let staticFlags = try await run("pkg-config", ["--static", "--libs", "activity"], pkgConfig).standardOutput
            .split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty && $0 != "-lactivity" }
        #expect(staticFlags.contains("-ljson-c"), "pkg-config --static misses json-c: \(staticFlags)")
        let linked = folder.url.appendingPathComponent("demo-static").path
        let compiledStatic = try await run(
            "cc", ["-I\(prefix)/include", program.path, "\(prefix)/lib/libactivity.a", "-o", linked] + staticFlags)
        #expect(compiledStatic.status == 0, "\(compiledStatic.standardError)")
        #expect(try await !run("ldd", [linked]).standardOutput.contains("libactivity"))
        for binary in [shared, linked] {
            let reported = try await run("\(prefix)/bin/activity", ["run", "--mode", "jsonl", "--", binary])
            #expect(reported.status == 0)
            #expect(reported.standardError.contains(#""title":"Installed C""#), "\(reported.standardError)")
        }

        // The Python package, in a fresh virtual environment, finding the installed library.
        let environment = folder.url.appendingPathComponent("venv").path
        #expect(try await run("python3", ["-m", "venv", environment]).status == 0)
        let sitePackages = try #require(
            try FileManager.default.contentsOfDirectory(atPath: "\(prefix)/lib").first { $0.hasPrefix("python") })
        let python = try await run(
            "\(prefix)/bin/activity",
            [
                "run", "--mode", "jsonl", "--", "\(environment)/bin/python", "-c",
                "import activity\nfor _ in activity.track(range(3), 'Installed Python'): pass",
            ], ["PYTHONPATH": "\(prefix)/lib/\(sitePackages)/site-packages"])
        #expect(python.status == 0, "\(python.standardError)")
        #expect(python.standardError.contains(#""title":"Installed Python""#), "\(python.standardError)")

        // The completions load in their shells; the man pages render without a warning.
        let bash = try await run(
            "bash",
            [
                "-c", #"source "$1"; COMP_WORDS=(activity ren); COMP_CWORD=1; _activity; echo "${COMPREPLY[@]}""#,
                "bash",
                "\(prefix)/share/bash-completion/completions/activity",
            ])
        #expect(bash.standardOutput == "render\n")
        let fish = try await run(
            "fish",
            [
                "--no-config", "-c", "source $argv[1]; complete -C 'activity ren'",
                "\(prefix)/share/fish/vendor_completions.d/activity.fish",
            ])
        #expect(fish.standardOutput.hasPrefix("render\t"))
        #expect(FileManager.default.fileExists(atPath: "\(prefix)/share/zsh/site-functions/_activity"))
        for page in ["man1/activity.1", "man3/libactivity.3"] {
            let rendered = try await run("groff", ["-man", "-ww", "-z", "\(prefix)/share/man/\(page)"])
            #expect(rendered.status == 0 && rendered.standardError.isEmpty, "\(page): \(rendered.standardError)")
        }

        // Uninstall: nothing of it is left, and what was there before stays.
        let uninstalled = try await run("\(source)/Scripts/install", ["--uninstall", "--prefix", prefix])
        #expect(uninstalled.status == 0, "\(uninstalled.standardError)")
        let left = try FileManager.default.subpathsOfDirectory(atPath: prefix)
        #expect(left.isEmpty, "left behind: \(left)")
    }

    @Test("a relative prefix is refused with a message naming it")
    func badPrefix() async throws {
        let result = try await run("\(Self.root.path)/Scripts/install", ["--prefix", "relative/place"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("the prefix must be an absolute path"))
    }
}
