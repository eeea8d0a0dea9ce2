import ActivityTimeline
import ActivityWire
import Foundation

/// The recordings the tests read: the golden build, and made-up ones.
enum RecordingFixture {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// `Golden/build.jsonl`: nesting, parallel steps, every outcome, an open activity, logs, bytes.
    static func build() throws -> Timeline {
        let data = try Data(contentsOf: folder.appendingPathComponent("build.jsonl"))
        return try Timeline.read(BytesSource(data)).timeline
    }

    /// A timeline from JSON lines.
    static func timeline(_ lines: [String]) throws -> Timeline {
        try Timeline.read(BytesSource(Array(lines.joined(separator: "\n").utf8))).timeline
    }

    /// Compares `actual` with `Golden/NAME`, or writes it when `ACTIVITY_RECORD_GOLDEN=1`.
    static func golden(_ name: String) -> String? {
        try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    static func record(_ text: String, as name: String) throws {
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    static var recording: Bool { ProcessInfo.processInfo.environment["ACTIVITY_RECORD_GOLDEN"] == "1" }
}
