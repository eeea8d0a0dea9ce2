import ActivityOverlay
import ActivityWire
import Foundation
import TestSupport
import Testing

@Suite("Overlay state JSON lines")
struct OverlayStateEncoderTests {
    /// Encodes every step of a run the way `--mode overlay-jsonl` does.
    static func lines(_ script: [(Int, OverlayInput)], configuration: OverlayConfiguration = .vectors) -> [[UInt8]] {
        var model = OverlayModel(configuration: configuration)
        var encoder = OverlayStateEncoder()
        var lines: [[UInt8]] = [encoder.encode(model.state, time: 0)!]
        var inputs = script.sorted { $0.0 < $1.0 }[...]
        while true {
            let input: (Int, OverlayInput)
            if let deadline = model.nextDeadline, deadline <= inputs.first?.0 ?? .max {
                input = (deadline, .tick)
            } else if let next = inputs.popFirst() {
                input = next
            } else {
                break
            }
            let effects = model.reduce(input.1, at: input.0)
            if let line = encoder.encode(model.state, time: model.time, effects: effects) { lines.append(line) }
        }
        return lines
    }

    static func objects(_ lines: [[UInt8]]) throws -> [[String: Any]] {
        try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]) }
    }

    static let signIn: [(Int, OverlayInput)] = [
        (0, E.begin("a", "Signing \"in\"", total: 4, blocking: .dim, cancellable: true)),
        (100, E.progress("a", 1)), (200, E.progress("a", 1)), (300, E.progress("a", 1)),
        (700, E.progress("a", 2)), (800, .cancelTapped), (900, E.end("a", .cancelled)),
    ]

    @Test("one line per change, with every field, never one per unchanged progress")
    func perChange() throws {
        let lines = Self.lines(Self.signIn)
        #expect(lines.allSatisfy { $0.last == UInt8(ascii: "\n") && !$0.dropLast().contains(UInt8(ascii: "\n")) })
        let objects = try Self.objects(lines)
        #expect(
            objects.map { $0["phase"] as? String } == [
                "idle", "pending", "pending", "visible", "visible", "visible", "holding", "idle",
            ])
        #expect(objects.map { $0["time"] as? Int } == [0, 0, 100, 500, 700, 800, 900, 1000])
        let shown = objects[3]
        #expect(shown["visible"] as? Bool == true)
        #expect(shown["blocksInput"] as? Bool == true)
        #expect(shown["dims"] as? Bool == true)
        #expect(shown["content"] as? String == "progress")
        #expect(shown["fraction"] as? Double == 0.25)
        #expect(shown["title"] as? String == "Signing \"in\"")
        #expect(shown["message"] is NSNull)
        #expect(shown["cancellable"] as? Bool == true)
        #expect(shown["presentation"] as? Int == 1)
        #expect(shown["announcements"] as? [String] == ["Signing \"in\""])
        #expect(objects[5]["cancel"] as? String == "requested")
        #expect(objects[1]["visible"] as? Bool == false && objects[1]["blocksInput"] as? Bool == true)
    }

    @Test("fractions have at most four decimals")
    func fractions() throws {
        var model = OverlayModel(configuration: .vectors)
        _ = model.reduce(E.begin("a", total: 3), at: 0)
        _ = model.reduce(E.progress("a", 1), at: 600)
        let line = String(decoding: OverlayStateEncoder.line(for: model.state, time: 600), as: UTF8.self)
        #expect(line.contains(#""fraction":0.3333,"#))
    }

    @Test(
        "every line of many randomized runs conforms to Schemas/overlay-state.v1.schema.json",
        .enabled(if: OverlayStateEncoderTests.checkerAvailable, "check-jsonschema is not installed")
    )
    func schema() throws {
        var all: [[UInt8]] = Self.lines(Self.signIn)
        all += Self.lines([(0, E.begin("a", "x")), (200, E.end("a", .failure, error: "e\u{1}"))])
        all += Self.lines([(0, E.begin("a", "x", total: 2)), (600, E.end("a", message: "Done"))])
        var rng = SplitMix64(seed: 7)
        for _ in 0..<20 {
            var script: [(Int, OverlayInput)] = []
            for step in 0..<40 {
                let name = "a\(Int.random(in: 0..<4, using: &rng))"
                let inputs: [OverlayInput] = [
                    E.begin(name, total: Bool.random(using: &rng) ? 5 : nil, cancellable: Bool.random(using: &rng)),
                    E.progress(name, Double(Int.random(in: 0...6, using: &rng))), E.end(name, .failure),
                    E.end(name, message: "ok"), .cancelTapped, .flashTapped, .scopeEnded,
                ]
                script.append((step * 150, inputs.randomElement(using: &rng)!))
            }
            all += Self.lines(script)
        }
        let folder = FileManager.default.temporaryDirectory.appending(path: "overlay-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [String] = []
        for (index, line) in Set(all).enumerated() {
            let file = folder.appending(path: "\(index).json")
            try Data(line).write(to: file)
            files.append(file.path)
        }
        let schema = URL(filePath: #filePath).deletingLastPathComponent().appending(
            path: "../../Schemas/overlay-state.v1.schema.json")
        let checked = try CommandRunner.run(
            "/usr/bin/env", ["check-jsonschema", "--schemafile", schema.standardized.path] + files, timeout: 300)
        #expect(checked.status == 0, "\(checked.standardOutput)\(checked.standardError)")
    }

    static let checkerAvailable: Bool = {
        executableOnPath("check-jsonschema") != nil || ProcessInfo.processInfo.environment["CI"] != nil
    }()
}
