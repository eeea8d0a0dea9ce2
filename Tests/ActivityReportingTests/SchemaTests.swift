import ActivityWire
import Foundation
import InMemoryActivity
import TestSupport
import Testing

@testable import ActivityReporting

@Suite("Schema")
struct SchemaTests {
    static let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Schemas/activity-event.v1.schema.json")

    static let available =
        executableOnPath("check-jsonschema") != nil || ProcessInfo.processInfo.environment["CI"] != nil

    @Test(
        "Every line the SDK writes passes check-jsonschema",
        .enabled(if: available, "check-jsonschema is not installed (pip install check-jsonschema)")
    )
    func everyLine() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("events.jsonl").path
            try await runScenario(on: JSONLinesSink(.file(path: path)))
            let lines = readBytes(URL(fileURLWithPath: path)).split(separator: 0x0A)
            #expect(lines.count >= 12)
            var files: [String] = []
            for (index, line) in lines.enumerated() {
                let file = folder.appendingPathComponent("line-\(index + 1).json").path
                try Data(line).write(to: URL(fileURLWithPath: file))
                files.append(file)
            }
            let checked = try CommandRunner.run(
                try #require(executableOnPath("check-jsonschema")), ["--schemafile", Self.schema.path] + files,
                timeout: 300)
            #expect(checked.status == 0, "\(checked.standardOutput)\(checked.standardError)")
        }
    }
}
