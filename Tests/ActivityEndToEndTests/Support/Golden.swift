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
