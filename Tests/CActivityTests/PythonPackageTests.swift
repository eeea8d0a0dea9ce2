import Foundation
import TestSupport
import Testing

/// The Python package (`Python/`): its wheel, built with setuptools from a copy of the checkout
/// (libactivity compiled into it), installed with pip into fresh virtual environments.
///
/// The wheel is built by the python3 on PATH without build isolation, with the setuptools that
/// Scripts/dependencies.sh installs, so nothing is downloaded (a virtual environment's own
/// setuptools may be too old to build wheels by itself).
@Suite("Python package")
struct PythonPackageTests {
    @Test("pip installs it into a virtual environment; its pytest suite passes against libactivity")
    func pytestSuite() async throws {
        // Minutes of pytest, off the few threads that run the other tests' tasks.
        try await LibactivityBuild.offPool(Self.installAndTest)
    }

    @Test(
        "installed from the wheel, it reports through the libactivity inside it: no ACTIVITY_LIBRARY or LD_LIBRARY_PATH"
    )
    func bundledLibrary() async throws {
        try await LibactivityBuild.offPool(Self.reportThroughTheBundledLibrary)
    }

    @Test("without a C compiler, make or pkg-config the build fails, saying what is missing and how to get it")
    func noCompiler() async throws {
        try await LibactivityBuild.offPool(Self.buildWithoutTools)
    }

    @Test("ACTIVITY_PYTHON_LIBRARY=system builds a pure wheel without the library")
    func systemLibrary() async throws {
        try await LibactivityBuild.offPool(Self.buildPure)
    }

    @Sendable static func installAndTest() throws {
        let prefix = try LibactivityBuild.prefix()
        let folder = try TemporaryFolder()
        let venvPython = try Self.environment(in: folder)
        // From a folder outside the checkout, so `import activity` finds the installed package.
        let tests = try LibactivityBuild.run(
            venvPython,
            [
                "-m", "pytest", "-q", "-p", "no:cacheprovider",
                LibactivityBuild.packageRoot.appending(path: "Python/tests").path,
            ], environment: ["ACTIVITY_LIBRARY": prefix.appending(path: "lib/libactivity.so.0").path],
            in: folder.url)
        #expect(tests.status == 0, "\(tests.combined)")
        let location = try LibactivityBuild.run(
            venvPython, ["-c", "import activity, sys; sys.stdout.write(activity.__file__)"],
            environment: ["ACTIVITY_LIBRARY": prefix.appending(path: "lib/libactivity.so.0").path], in: folder.url)
        #expect(
            location.output.hasPrefix(folder.url.appending(path: "venv").path),
            "imported from \(location.output), not the install")
        let typed = location.output.replacingOccurrences(of: "__init__.py", with: "py.typed")
        #expect(FileManager.default.fileExists(atPath: typed), "py.typed is not installed (PEP 561)")
    }

    @Sendable static func reportThroughTheBundledLibrary() throws {
        let folder = try TemporaryFolder()
        let venvPython = try Self.environment(in: folder)
        let events = folder.url.appending(path: "events.jsonl")
        let program = """
            import activity, sys
            for _ in activity.track(range(3), "Bundled"):
                pass
            assert activity.flush()
            sys.stdout.write(activity._library_path)
            """
        // An empty LD_LIBRARY_PATH is none; LibactivityBuild.run leaves out the caller's ACTIVITY_*.
        let reported = try LibactivityBuild.run(
            venvPython, ["-c", program],
            environment: ["ACTIVITY_SINK": "file:\(events.path)", "LD_LIBRARY_PATH": ""], in: folder.url)
        try #require(reported.status == 0, "\(reported.combined)")
        #expect(reported.error.isEmpty, "\(reported.error)")
        #expect(
            reported.output.hasPrefix(folder.url.appending(path: "venv").path)
                && reported.output.hasSuffix("/site-packages/activity/libactivity.so.0"),
            "loaded \(reported.output), not the installed package's copy")
        let report = try Support.check(folder.read("events.jsonl"))
        #expect(report.diagnostics.isEmpty, "\(report)")
        #expect(report.count("begin") == 1 && report.count("end") == 1, "\(report)")
        let text = try String(contentsOf: events, encoding: .utf8)
        #expect(text.contains(#""title":"Bundled""#), "\(text)")
    }

    @Sendable static func buildWithoutTools() throws {
        let python = try Self.python.get()
        let folder = try TemporaryFolder()
        let source = try Self.copyOfTheSources(in: folder.url)
        // PATH: an empty folder (no cc, gcc, make or pkg-config); pip runs setup.py with its own
        // interpreter, given by its path.
        let empty = folder.url.appending(path: "empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let built = try LibactivityBuild.run(
            python, Self.wheelArguments(source, into: folder.url.appending(path: "wheels")),
            environment: ["PATH": empty.path, "CC": "/nonexistent/cc"])
        #expect(built.status != 0, "\(built.combined)")
        let message = try #require(
            built.combined.split(separator: "\n").first { $0.contains("building libactivity into the package needs") },
            "\(built.combined)")
        #expect(message.contains("a C compiler (none found: CC=/nonexistent/cc), make, pkg-config."), "\(message)")
        #expect(message.contains("(apt-get install gcc make pkg-config libjson-c-dev)"), "\(message)")
        #expect(message.contains("ACTIVITY_PYTHON_LIBRARY=system"), "\(message)")
    }

    @Sendable static func buildPure() throws {
        let python = try Self.python.get()
        let folder = try TemporaryFolder()
        let source = try Self.copyOfTheSources(in: folder.url)
        let wheels = folder.url.appending(path: "wheels")
        let built = try LibactivityBuild.run(
            python, Self.wheelArguments(source, into: wheels), environment: ["ACTIVITY_PYTHON_LIBRARY": "system"])
        try #require(built.status == 0, "\(built.combined)")
        let names = try FileManager.default.contentsOfDirectory(atPath: wheels.path)
        #expect(names.count == 1 && names[0].hasSuffix("-py3-none-any.whl"), "\(names)")
        let listing = try LibactivityBuild.run(
            python,
            [
                "-c", "import sys, zipfile; print(*zipfile.ZipFile(sys.argv[1]).namelist(), sep='\\n')",
                wheels.appending(path: names[0]).path,
            ])
        #expect(listing.status == 0, "\(listing.combined)")
        #expect(!listing.output.contains("libactivity"), "\(listing.output)")
        #expect(listing.output.contains(".dist-info/licenses/LICENSE\n"), "\(listing.output)")
    }

    // MARK: - The wheel

    /// The python3 on PATH, as its own path (PATH may hold a shim that needs PATH).
    static let python: Result<String, BuildFailure> = {
        guard let python3 = LibactivityBuild.executable("python3") else {
            return .failure(BuildFailure(output: "python3 is not installed"))
        }
        do {
            let found = try LibactivityBuild.run(python3, ["-c", "import sys; sys.stdout.write(sys.executable)"])
            guard found.status == 0, !found.output.isEmpty else {
                return .failure(BuildFailure(output: found.combined))
            }
            return .success(found.output)
        } catch {
            return .failure(BuildFailure(output: "\(error)"))
        }
    }()

    /// The wheel, built once per test run with the library compiled into it.
    static let wheel: Result<URL, BuildFailure> = {
        do {
            let python = try Self.python.get()
            let folder = LibactivityBuild.buildArea.appending(path: "python-wheel")
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let source = try Self.copyOfTheSources(in: folder)
            let wheels = folder.appending(path: "wheels")
            let built = try LibactivityBuild.run(python, Self.wheelArguments(source, into: wheels))
            guard built.status == 0 else { return .failure(BuildFailure(output: built.combined)) }
            let names = try FileManager.default.contentsOfDirectory(atPath: wheels.path)
            guard names.count == 1, names[0].hasSuffix("-py3-none-linux_\(Self.machine).whl") else {
                return .failure(BuildFailure(output: "built \(names), not one py3-none-linux_\(Self.machine) wheel"))
            }
            return .success(wheels.appending(path: names[0]))
        } catch let failure as BuildFailure {
            return .failure(failure)
        } catch {
            return .failure(BuildFailure(output: "\(error)"))
        }
    }()

    static var machine: String {
        var name = utsname()
        uname(&name)
        return withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    struct BuildFailure: Error, Sendable, CustomStringConvertible {
        var output: String
        var description: String { "building the Python package failed:\n\(output)" }
    }

    static func wheelArguments(_ source: URL, into wheels: URL) -> [String] {
        [
            "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-index", "--no-build-isolation",
            "--no-deps", "--wheel-dir", wheels.path, source.path,
        ]
    }

    /// What the build reads, copied as the checkout lays it out (Python/, Sources/CActivity,
    /// LICENSE): setuptools builds in the source folder, which concurrent builds must not share.
    static func copyOfTheSources(in folder: URL) throws -> URL {
        let files = FileManager.default
        let root = LibactivityBuild.packageRoot
        for path in ["Python/pyproject.toml", "Python/setup.py", "Python/README.md", "Python/src", "LICENSE"] {
            let target = folder.appending(path: path)
            try files.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try files.copyItem(at: root.appending(path: path), to: target)
        }
        try files.createSymbolicLink(
            atPath: folder.appending(path: "Python/LICENSE").path, withDestinationPath: "../LICENSE")
        try files.createDirectory(at: folder.appending(path: "Sources"), withIntermediateDirectories: true)
        try files.copyItem(at: LibactivityBuild.libraryDirectory, to: folder.appending(path: "Sources/CActivity"))
        return folder.appending(path: "Python")
    }

    /// A fresh virtual environment in `folder`/venv with the wheel installed; its python.
    static func environment(in folder: TemporaryFolder) throws -> String {
        let wheel = try Self.wheel.get()
        let python = try Self.python.get()
        let environment = folder.url.appending(path: "venv")
        // System site packages: pytest comes from there, as nothing is downloaded.
        let made = try LibactivityBuild.run(python, ["-m", "venv", "--system-site-packages", environment.path])
        try #require(made.status == 0, "\(made.combined)")
        let venvPython = environment.appending(path: "bin/python").path
        let installed = try LibactivityBuild.run(
            venvPython, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-index", wheel.path])
        try #require(installed.status == 0, "\(installed.combined)")
        return venvPython
    }
}
