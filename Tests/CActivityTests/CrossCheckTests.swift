import ActivityWire
import CActivity
import Foundation
import TestSupport
import Testing

/// A handle that crosses threads: libactivity handles are thread-safe by contract.
private struct Handle: @unchecked Sendable {
    let pointer: OpaquePointer?
}

/// The library as SwiftPM builds it, called in-process; every line it writes is decoded by
/// ActivityWire and must be exactly what the Swift encoder writes for the same event.
@Suite("libactivity and ActivityWire agree", .serialized)
final class CrossCheckTests {
    let folder: TemporaryFolder
    let path: URL

    init() throws {
        folder = try TemporaryFolder()
        path = folder.url.appending(path: "events.jsonl")
        #expect(activity_set_sink("file:\(path.path)") == 0)
    }

    deinit {
        activity_set_sink("none")
    }

    /// A variety of events: every type, status and level, numbers, escapes, Unicode, broken UTF-8.
    func produceVariety() {
        let root = activity_begin(nil, "Build \"release\" a/b ✓ 構築 😀", 12, "files")
        let child = activity_begin(root, "tab\there, newline\n, control \u{01}\u{1F}, del \u{7F}", -1, nil)
        for value in [0.1, 1e-05, 2.0 / 3.0, 123_456_789_012_345.6, 1e20, 3, 0.5e-7] {
            activity_set_completed(child, value)
            activity_flush(1000)
        }
        activity_set_total(child, 4.25)
        activity_set_message(child, "resolving host")
        activity_flush(1000)
        activity_set_total(child, -1)
        activity_flush(1000)
        for (level, text) in [
            (ACTIVITY_LEVEL_DEBUG, "debug"), (ACTIVITY_LEVEL_INFO, "info"), (ACTIVITY_LEVEL_WARNING, "warning"),
            (ACTIVITY_LEVEL_ERROR, "error"),
        ] {
            activity_log(child, level, "a \(text) message")
        }
        let broken: [CChar] = [0x61, -1, 0x20, -30, -126, 0x20, -19, -96, -128, 0x62, 0].map { CChar($0) }
        activity_log(nil, ACTIVITY_LEVEL_INFO, broken)
        activity_end(child, ACTIVITY_STATUS_FAILURE, "disk full")
        for (status, name) in [
            (ACTIVITY_STATUS_SUCCESS, "s"), (ACTIVITY_STATUS_CANCELLED, "c"), (ACTIVITY_STATUS_SKIPPED, "k"),
        ] {
            let a = activity_begin(root, name, 1, "bytes")
            activity_advance(a, 0.75)
            activity_end(a, status, "ended as \(name)")
        }
        activity_advance(root, 12)
        activity_end(root, ACTIVITY_STATUS_SUCCESS, nil)
    }

    func produceInThreads(threads: Int, activities: Int) {
        let shared = Handle(pointer: activity_begin(nil, "shared", Double(threads * activities), nil))
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<activities {
                let a = activity_begin(shared.pointer, "thread \(thread) item \(index)", 3, nil)
                activity_advance(a, 1)
                activity_log(a, ACTIVITY_LEVEL_INFO, "working on \(index)")
                activity_advance(a, 2)
                activity_end(a, ACTIVITY_STATUS_SUCCESS, nil)
                activity_advance(shared.pointer, 1)
            }
        }
        activity_end(shared.pointer, ACTIVITY_STATUS_SUCCESS, "all threads done")
    }

    @Test("Every line decodes, follows the stream rules, and is byte for byte what the Swift encoder writes")
    func everyLineAgrees() throws {
        produceVariety()
        produceInThreads(threads: 8, activities: 500)
        let report = try Support.check(try folder.read("events.jsonl"))
        #expect(report.isClean, "\(report.summary)")
        #expect(report.count("begin") == 1 + 1 + 3 + 1 + 8 * 500)
        #expect(report.count("end") == report.count("begin"))
        #expect(report.count("log") == 5 + 8 * 500)
        let encoder = ActivityEventEncoder()
        var mismatches: [String] = []
        for (event, line) in zip(report.events, report.raw) where encoder.encode(event) != line + [0x0A] {
            mismatches.append(
                "C:     \(String(decoding: line.prefix(300), as: UTF8.self))\nSwift: "
                    + String(decoding: encoder.encode(event).prefix(300), as: UTF8.self))
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5).joined(separator: "\n"))")
        // Spot checks of what both must have written.
        let text = String(decoding: try folder.read("events.jsonl"), as: UTF8.self)
        #expect(text.contains(#""completed":0.1,"#) || text.contains(#""completed":0.1}"#))
        #expect(text.contains(#""completed":1e-05"#))
        #expect(text.contains(#""completed":9007199254740992"#))
        #expect(text.contains(#""total":null"#))
        #expect(text.contains(#"\u0001\u001f, del "# + "\u{7F}"))
        #expect(text.contains("a\u{FFFD} \u{FFFD} \u{FFFD}\u{FFFD}\u{FFFD}b"))
        #expect(text.contains(#""error":"disk full""#))
    }

    @Test(
        "Long text is cut exactly as the Swift encoder cuts it",
        arguments: ["a", "é", "語", "😀", "a\"\\"]
    )
    func truncationAgrees(unit: String) throws {
        let long = String(repeating: unit, count: 9000 / unit.utf8.count)
        let a = activity_begin(nil, long, 5, long)
        activity_log(a, ACTIVITY_LEVEL_WARNING, long)
        activity_end(a, ACTIVITY_STATUS_FAILURE, long)
        let report = try Support.check(try folder.read("events.jsonl"))
        #expect(report.isClean, "\(report.summary)")
        try #require(report.events.count == 3)
        let encoder = ActivityEventEncoder()
        guard case .begin(let begin) = report.events[0], case .log(let log) = report.events[1],
            case .end(let end) = report.events[2]
        else {
            Issue.record("unexpected events: \(report.events)")
            return
        }
        // The same events with the full text, encoded by Swift with the C line's id and time.
        let expected: [ActivityEvent] = [
            .begin(.init(id: begin.id, title: long, total: 5, unit: long, timestamp: begin.timestamp)),
            .log(.init(message: long, id: log.id, level: .warning, timestamp: log.timestamp)),
            .end(.init(id: end.id, status: .failure, error: long, total: .value(5), timestamp: end.timestamp)),
        ]
        for (event, line) in zip(expected, report.raw) {
            let swift = encoder.encode(event)
            #expect(swift.count <= 4096)
            let c = String(decoding: line + [0x0A], as: UTF8.self)
            let s = String(decoding: swift, as: UTF8.self)
            #expect(
                c == s,
                "C wrote \(c.utf8.count) bytes, Swift \(s.utf8.count): C starts \(c.prefix(80)) ends \(c.suffix(20)), Swift starts \(s.prefix(80)) ends \(s.suffix(20))"
            )
        }
    }

    @Test("Bad input is rejected with -EINVAL and writes nothing")
    func badInput() throws {
        let a = activity_begin(nil, "checked", 10, nil)
        #expect(activity_advance(a, .nan) == -EINVAL)
        #expect(activity_advance(a, -1) == -EINVAL)
        #expect(activity_set_completed(a, .infinity) == -EINVAL)
        #expect(activity_set_total(a, .nan) == -EINVAL)
        #expect(activity_end(a, activity_status(rawValue: 42), nil) == -EINVAL)
        #expect(activity_flush(1000) == 0)
        #expect(activity_end(a, ACTIVITY_STATUS_SUCCESS, nil) == 0)
        #expect(activity_advance(nil, 1) == 0)
        #expect(activity_end(nil, ACTIVITY_STATUS_SUCCESS, nil) == 0)
        let report = try Support.check(try folder.read("events.jsonl"))
        #expect(report.isClean, "\(report.summary)")
        #expect(report.events.map(\.typeName) == ["begin", "end"])
        #expect(
            String(cString: activity_version())
                == "\(ACTIVITY_VERSION_MAJOR).\(ACTIVITY_VERSION_MINOR).\(ACTIVITY_VERSION_PATCH)")
    }
}

extension CrossCheckTests {
    static let schemaAvailable =
        LibactivityBuild.executable("check-jsonschema") != nil || ProcessInfo.processInfo.environment["CI"] != nil

    @Test(
        "Every line the library writes passes the protocol's JSON Schema",
        .enabled(if: schemaAvailable, "check-jsonschema is not installed (pip install check-jsonschema)")
    )
    func schema() throws {
        produceVariety()
        produceInThreads(threads: 4, activities: 50)
        let long = String(repeating: "é\"", count: 3000)
        let a = activity_begin(nil, long, 1, long)
        activity_log(a, ACTIVITY_LEVEL_ERROR, long)
        activity_end(a, ACTIVITY_STATUS_FAILURE, long)
        let bytes = try folder.read("events.jsonl")
        let lines = bytes.split(separator: 0x0A)
        #expect(lines.count > 400)
        let instances = try TemporaryFolder()
        var paths: [String] = []
        for (index, line) in lines.enumerated() {
            let path = instances.url.appending(path: "line-\(index + 1).json")
            try Data(line).write(to: path)
            paths.append(path.path)
        }
        let checker = try #require(LibactivityBuild.executable("check-jsonschema"), "check-jsonschema is not installed")
        let outcome = try LibactivityBuild.run(checker, ["--schemafile", LibactivityBuild.schema.path] + paths)
        #expect(outcome.status == 0, "check-jsonschema rejected lines:\n\(outcome.combined.prefix(4000))")
    }
}
