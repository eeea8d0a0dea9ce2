import ActivityWire
import Foundation
import TestSupport
import Testing

/// Runs `check-jsonschema` once over many one-line instance files and returns the names that failed.
func schemaFailures(lines: [String: [UInt8]], schema: URL) throws -> Set<String> {
    let temporary = try TemporaryFolder()
    let folder = temporary.url
    for (name, bytes) in lines {
        try Data(bytes).write(to: folder.appending(path: "\(name).json"))
    }
    let checked = try CommandRunner.run(
        try #require(executableOnPath("check-jsonschema")),
        ["--output-format", "json", "--schemafile", schema.path]
            + lines.keys.sorted().map { folder.appending(path: "\($0).json").path }, timeout: 600)
    let data = Data(checked.standardOutput.utf8)
    let report = try #require(
        try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(String(decoding: data, as: UTF8.self))")
    let failed = ((report["errors"] as? [[String: Any]]) ?? []) + ((report["parse_errors"] as? [[String: Any]]) ?? [])
    return Set(
        failed.compactMap {
            ($0["filename"] as? String).map { URL(filePath: $0).deletingPathExtension().lastPathComponent }
        })
}

@Suite("JSON Schema")
struct SchemaTests {
    /// The diagnostic codes a JSON Schema can express; the others (UTF-8, duplicate keys, line
    /// length, rules across lines) are checked by the decoder and the validator alone.
    static let schemaLevel: Set<String> = [
        "invalid-json", "not-an-object", "missing-field", "wrong-type", "out-of-range", "invalid-id", "invalid-value",
        "invalid-attrs",
    ]

    /// Fixtures beyond what the schema tool's JSON parser reads as the decoder does: out-of-range
    /// numbers only their digits show (it reads numbers as doubles, and `9007199254740992.5` is
    /// 2^53 as a double), and lone surrogate escapes, valid JSON that it refuses to parse.
    static let beyondTheSchemaToolsParser: Set<String> = ["out-of-range-digits", "attrs-lone-surrogate-key"]

    static let available =
        executableOnPath("check-jsonschema") != nil || ProcessInfo.processInfo.environment["CI"] != nil

    @Test(
        "check-jsonschema accepts every valid line and rejects every schema-level invalid one",
        .enabled(if: available, "check-jsonschema is not installed (pip install check-jsonschema)")
    )
    func fixtures() throws {
        var lines: [String: [UInt8]] = [:]
        var mustFail: Set<String> = []
        var mayFail: Set<String> = []
        for stream in Fixtures.streams(in: Fixtures.valid) + Fixtures.streams(in: Fixtures.invalid) {
            let name = stream.deletingPathExtension().lastPathComponent
            let kind = stream.deletingLastPathComponent().lastPathComponent
            let expected = Dictionary(grouping: Fixtures.expected(for: stream), by: \.line)
            let content = try [UInt8](Data(contentsOf: stream))
            for (index, line) in content.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
            where !line.isEmpty {
                let key = "\(kind)-\(name)-\(index + 1)"
                lines[key] = Array(line)
                let codes = Set((expected[index + 1] ?? []).map(\.code))
                if Self.beyondTheSchemaToolsParser.contains(name) {
                    mayFail.insert(key)
                } else if !codes.isDisjoint(with: Self.schemaLevel) {
                    mustFail.insert(key)
                } else if !codes.subtracting([
                    "unsupported-version", "unknown-activity", "duplicate-begin", "already-ended", "unknown-parent",
                    "children-open", "never-ended",
                ]).isEmpty {
                    mayFail.insert(key)  // duplicate keys and broken UTF-8: outside what a schema sees
                }
            }
        }
        let failed = try schemaFailures(
            lines: lines, schema: Fixtures.schemas.appending(path: "activity-event.v1.schema.json"))
        #expect(mustFail.subtracting(failed).sorted() == [], "the schema accepts lines the decoder rejects")
        #expect(
            failed.subtracting(mustFail).subtracting(mayFail).sorted() == [],
            "the schema rejects lines the decoder accepts")
        #expect(mustFail.count >= 30)
    }

    @Test(
        "Generated events all pass the schema",
        .enabled(if: available, "check-jsonschema is not installed (pip install check-jsonschema)")
    )
    func generated() throws {
        var generator = EventGenerator(random: SplitMix64(seed: 99))
        var lines: [String: [UInt8]] = [:]
        for index in 0..<300 {
            lines["event-\(index)"] = ActivityEventEncoder().encode(generator.event()).dropLast()
        }
        #expect(
            try schemaFailures(lines: lines, schema: Fixtures.schemas.appending(path: "activity-event.v1.schema.json"))
                == [])
    }
}
