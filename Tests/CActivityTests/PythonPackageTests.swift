import Foundation
import Testing

/// The Python package (`Python/`), installed with pip into a fresh virtual environment and tested
/// with pytest against the library as `make install` installs it.
@Suite("Python package")
struct PythonPackageTests {
    @Test("pip installs it into a virtual environment; its pytest suite passes against libactivity")
    func pytestSuite() async throws {
        // Minutes of pytest, off the few threads that run the other tests' tasks.
        try await Support.offPool(Self.installAndTest)
    }

    @Sendable static func installAndTest() throws {
        let prefix = try Support.prefix()
        let python = try #require(Support.executable("python3"), "python3 is not installed")
        let folder = try TemporaryDirectory()
        let environment = folder.url.appending(path: "venv")
        // System site packages: pytest comes from there, as nothing is downloaded.
        let made = try Support.run(python, ["-m", "venv", "--system-site-packages", environment.path])
        try #require(made.status == 0, "\(made.combined)")
        let venvPython = environment.appending(path: "bin/python").path
        let installed = try Support.run(
            venvPython,
            [
                "-m", "pip", "install", "--quiet", "--no-index",
                Support.packageRoot.appending(path: "Python").path,
            ])
        try #require(installed.status == 0, "\(installed.combined)")
        // From a folder outside the checkout, so `import activity` finds the installed package.
        let tests = try Support.run(
            venvPython,
            [
                "-m", "pytest", "-q", "-p", "no:cacheprovider",
                Support.packageRoot.appending(path: "Python/tests").path,
            ], environment: ["ACTIVITY_LIBRARY": prefix.appending(path: "lib/libactivity.so.0").path],
            in: folder.url)
        #expect(tests.status == 0, "\(tests.combined)")
        let location = try Support.run(
            venvPython, ["-c", "import activity, sys; sys.stdout.write(activity.__file__)"],
            environment: ["ACTIVITY_LIBRARY": prefix.appending(path: "lib/libactivity.so.0").path], in: folder.url)
        #expect(location.output.hasPrefix(environment.path), "imported from \(location.output), not the install")
        let typed = location.output.replacingOccurrences(of: "__init__.py", with: "py.typed")
        #expect(FileManager.default.fileExists(atPath: typed), "py.typed is not installed (PEP 561)")
    }
}
