import Foundation
import TestSupport
import Testing

/// The project has one version, in VERSION; where it must be spelled out, it agrees.
@Suite("One version")
struct VersionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func read(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("activity --version, the C header's macros, the Python package and the changelog say VERSION")
    func agree() throws {
        let version = try read("VERSION").trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = version.split(separator: ".")
        try #require(parts.count == 3)
        #expect(try CommandRunner.activity(["--version"]).standardOutput == "activity \(version)\n")
        let header = try read("Sources/CActivity/include/activity.h")
        #expect(header.contains("#define ACTIVITY_VERSION_STRING \"\(version)\""))
        #expect(header.contains("#define ACTIVITY_VERSION_MAJOR \(parts[0])\n"))
        #expect(header.contains("#define ACTIVITY_VERSION_MINOR \(parts[1])\n"))
        #expect(header.contains("#define ACTIVITY_VERSION_PATCH \(parts[2])\n"))
        #expect(try read("Python/src/activity/__init__.py").contains("__version__ = \"\(version)\""))
        #expect(try read("Sources/CActivity/Makefile").contains("../../VERSION"))
        #expect(try read("CHANGELOG.md").contains("## \(version)"))
    }
}
