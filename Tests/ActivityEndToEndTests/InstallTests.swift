import Foundation
import TestSupport
import Testing

/// `Scripts/install` from a clean clone into a temporary prefix, then everything used from the
/// installed files only, then `--uninstall`; then the same clone installed again as for the
/// dynamic loader's own folders and for Debian's python3. (The clone is of the committed tree:
/// what a user gets.)
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
        // A prefix the dynamic loader does not search: what programs need is said.
        #expect(
            installed.standardOutput.contains("link them with -Wl,-rpath,\(prefix)/lib"), "\(installed.standardOutput)")
        #expect(installed.standardOutput.contains("or run them with LD_LIBRARY_PATH=\(prefix)/lib\n"))
        #expect(installed.standardOutput.contains("PKG_CONFIG_PATH=\(prefix)/lib/pkgconfig\n"))

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

        // The Python package, where the install said, which python3 does not search for this
        // prefix: the PYTHONPATH it printed, in a fresh virtual environment, finding the installed
        // library, and writing its bytecode (which uninstall removes).
        let sitePackages = try Self.pythonFolder(installed.standardOutput)
        #expect(sitePackages.hasPrefix("\(prefix)/lib/python3."), "\(sitePackages)")
        #expect(
            installed.standardOutput.contains("\n  export PYTHONPATH=\(sitePackages)${PYTHONPATH:+:$PYTHONPATH}\n"),
            "\(installed.standardOutput)")
        let environment = folder.url.appendingPathComponent("venv").path
        #expect(try await run("python3", ["-m", "venv", environment]).status == 0)
        let python = try await run(
            "\(prefix)/bin/activity",
            [
                "run", "--mode", "jsonl", "--", "\(environment)/bin/python", "-c",
                "import activity\nfor _ in activity.track(range(3), 'Installed Python'): pass",
            ], ["PYTHONPATH": sitePackages, "PYTHONDONTWRITEBYTECODE": ""])
        #expect(python.status == 0, "\(python.standardError)")
        #expect(python.standardError.contains(#""title":"Installed Python""#), "\(python.standardError)")
        #expect(FileManager.default.fileExists(atPath: "\(sitePackages)/activity/__pycache__"))

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
        // The licence beside what is installed: the command's and the library's (for a package of it).
        #expect(FileManager.default.fileExists(atPath: "\(prefix)/share/doc/activity/LICENSE"))
        #expect(FileManager.default.fileExists(atPath: "\(prefix)/share/doc/libactivity/LICENSE"))
        for page in ["man1/activity.1", "man3/libactivity.3"] {
            let rendered = try await run("groff", ["-man", "-ww", "-z", "\(prefix)/share/man/\(page)"])
            #expect(rendered.status == 0 && rendered.standardError.isEmpty, "\(page): \(rendered.standardError)")
        }

        // Uninstall: nothing of it is left, not even the prefix the install created, and what was
        // there before stays.
        let uninstalled = try await run("\(source)/Scripts/install", ["--uninstall", "--prefix", prefix])
        #expect(uninstalled.status == 0, "\(uninstalled.standardError)")
        let left = (try? FileManager.default.subpathsOfDirectory(atPath: prefix)) ?? []
        #expect(!FileManager.default.fileExists(atPath: "\(sitePackages)/activity/__pycache__"))
        #expect(!FileManager.default.fileExists(atPath: prefix), "left behind: \(left)")
        #expect(FileManager.default.fileExists(atPath: program.path))

        try await installForTheLoader(source: source, folder: folder)
        try await installForDebianPython(source: source, folder: folder)
    }

    /// The folder of the Python package, from the install's line `the Python package: FOLDER/activity`.
    static func pythonFolder(_ output: String) throws -> String {
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("the Python package: ") })
        return String(line.dropFirst("the Python package: ".count).dropLast("/activity".count))
    }

    /// Installed for real into a folder of the dynamic loader, libactivity.so.0 must be found at
    /// once: the install runs ldconfig (as root), and so does the uninstall. An ldconfig of the
    /// test's own stands in, one that names the prefix's lib among its folders.
    func installForTheLoader(source: String, folder: TemporaryFolder) async throws {
        let prefix = folder.url.appendingPathComponent("loader-prefix").path
        let tools = folder.url.appendingPathComponent("tools")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        let log = tools.appendingPathComponent("ldconfig.log").path
        _ = try folder.file(
            "tools/ldconfig",
            contents: """
                #!/bin/sh
                echo "ldconfig $*" >>'\(log)'
                [ "$*" = "-v -N" ] && echo '\(prefix)/lib: (from the test)'
                exit 0
                """, executable: true)
        let environment = ["PATH": "\(tools.path):\(CommandRunner.path)"]
        let root = geteuid() == 0
        let said =
            root
            ? "ran ldconfig: the dynamic loader's cache is up to date for \(prefix)/lib\n"
            : "run ldconfig as root (sudo ldconfig) to update the dynamic loader's cache for \(prefix)/lib\n"
        let ran = root ? ["ldconfig -v -N", "ldconfig "] : ["ldconfig -v -N"]

        let installed = try await run("\(source)/Scripts/install", ["--prefix", prefix], environment)
        try #require(installed.status == 0, "\(installed.standardError)")
        #expect(installed.standardOutput.hasSuffix(said), "\(installed.standardOutput)")
        #expect(!installed.standardOutput.contains("rpath"), "\(installed.standardOutput)")
        #expect(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init) == ran)

        let uninstalled = try await run("\(source)/Scripts/install", ["--uninstall", "--prefix", prefix], environment)
        #expect(uninstalled.status == 0, "\(uninstalled.standardError)")
        #expect(uninstalled.standardOutput == "uninstalled from \(prefix)\n\(said)")
        #expect(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init) == ran + ran)
        #expect(!FileManager.default.fileExists(atPath: prefix))
    }

    /// Packaged for /usr/local (DESTDIR) with Debian's python3 as the python3 on PATH: the package
    /// goes where that interpreter looks (/usr/local/lib/python3.X/dist-packages, not the
    /// site-packages it does not search), no PYTHONPATH is needed, and the loader is left alone (a
    /// package's own scripts run ldconfig). Uninstall leaves nothing, DESTDIR included.
    func installForDebianPython(source: String, folder: TemporaryFolder) async throws {
        let debianPython = "/usr/bin/python3"
        try #require(
            FileManager.default.isExecutableFile(atPath: debianPython), "no \(debianPython) (Scripts/dependencies.sh)")
        let tools = folder.url.appendingPathComponent("debian-tools")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: tools.appendingPathComponent("python3").path, withDestinationPath: debianPython)
        let log = tools.appendingPathComponent("ldconfig.log").path
        _ = try folder.file(
            "debian-tools/ldconfig", contents: "#!/bin/sh\necho \"ldconfig $*\" >>'\(log)'\n", executable: true)
        let environment = ["PATH": "\(tools.path):\(CommandRunner.path)"]
        let destdir = folder.url.appendingPathComponent("staging").path

        let installed = try await run("\(source)/Scripts/install", ["--destdir", destdir], environment)
        try #require(installed.status == 0, "\(installed.standardError)")
        let searched = try await run(
            debianPython, ["-c", "import site; print(*site.getsitepackages(), sep='\\n')"], environment)
        let sitePackages = try Self.pythonFolder(installed.standardOutput)
        #expect(sitePackages.hasPrefix("/usr/local/lib/python3"), "\(sitePackages)")
        #expect(
            searched.standardOutput.split(separator: "\n").contains { $0 == sitePackages }, "\(searched.standardOutput)"
        )
        #expect(FileManager.default.fileExists(atPath: "\(destdir)\(sitePackages)/activity/__init__.py"))
        #expect(!installed.standardOutput.contains("PYTHONPATH"), "\(installed.standardOutput)")
        #expect(!FileManager.default.fileExists(atPath: log), "ldconfig ran for a DESTDIR install")

        let uninstalled = try await run(
            "\(source)/Scripts/install", ["--uninstall", "--destdir", destdir], environment)
        #expect(uninstalled.status == 0, "\(uninstalled.standardError)")
        #expect(!FileManager.default.fileExists(atPath: destdir))
        #expect(!FileManager.default.fileExists(atPath: log), "ldconfig ran for a DESTDIR uninstall")
    }

    @Test("a relative prefix is refused with a message naming it")
    func badPrefix() async throws {
        let result = try await run("\(Self.root.path)/Scripts/install", ["--prefix", "relative/place"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("the prefix must be an absolute path"))
    }
}
