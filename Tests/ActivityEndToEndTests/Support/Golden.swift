import Foundation
import Testing

/// Golden files under `Tests/ActivityEndToEndTests/Golden/`. Set `ACTIVITY_RECORD_GOLDEN=1` to write
/// the current output instead of comparing (then review the diff and commit it).
enum Golden {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")

    static var recording: Bool { ProcessInfo.processInfo.environment["ACTIVITY_RECORD_GOLDEN"] == "1" }

    static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = folder.appendingPathComponent(name)
        if recording {
            try? actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record(
                "missing golden file \(name); run with ACTIVITY_RECORD_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "output differs from Golden/\(name)", sourceLocation: sourceLocation)
    }
}

/// Repository paths for fixtures.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
}

/// The adapters' captures of the real tools (`Tests/ActivityAdaptersTests/Fixtures`, described in
/// its README): the adapters' unit tests read them in process, the end-to-end tests feed them to
/// the built `activity` and to stand-ins for the tools.
enum AdapterFixtures {
    static let folder = Repository.root.appendingPathComponent("Tests/ActivityAdaptersTests/Fixtures")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// The activities `zig/zig-build.bin` makes, as ZigProgressTests has the adapter make them.
    static let zigBuildActivities = [
        "steps success 2.0/2.0 ", "compile exe hello Debug native success 0.0/? ",
        "Semantic Analysis success 1523.0/? ", "Code Generation success 200.0/200.0 ", "install hello success 0.0/? ",
    ]
}
