import Foundation
import TestSupport
import Testing

/// A sink whose destination fails the write (a full disk: `/dev/full`) is said once, naming the
/// sink and the system's reason, by the Swift SDK and by libactivity; what they quote from the
/// environment is shown with its controls escaped, never raw.
@Suite("Sinks: a failing write said once with its reason; quoted settings escaped")
struct SinkWriteFailureTests {
    static let swiftProgram = CommandRunner.binFolder.appendingPathComponent("activity-example-downloads")

    func run(
        _ program: URL, _ arguments: [String] = [], with settings: [String: String]
    ) async throws -> (
        status: Int32, errors: String
    ) {
        var environment = ProcessInfo.processInfo.environment
        for name in ["ACTIVITY_SINK", "ACTIVITY_PARENT", "ACTIVITY_CONTROL", "ACTIVITY_TIMEOUT_MS"] {
            environment[name] = nil
        }
        environment.merge(settings) { $1 }
        let result = try await runProcess(program, arguments, environment: environment)
        return (result.status, String(decoding: result.errors, as: UTF8.self))
    }

    func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test("the Swift SDK names the sink and ENOSPC once, and the program carries on")
    func swiftFullDisk() async throws {
        let result = try await run(
            Self.swiftProgram, ["--files", "3", "--fast"], with: ["ACTIVITY_SINK": "file:/dev/full"])
        #expect(result.status == 0)
        let message = #"cannot write to "file:/dev/full": No space left on device; reporting is off"#
        #expect(occurrences(of: message, in: result.errors) == 1, "stderr: \(result.errors)")
    }

    @Test("libactivity names the sink and ENOSPC once")
    func cFullDisk() async throws {
        let result = try await run(ConformanceTests.cProgram, with: ["ACTIVITY_SINK": "file:/dev/full"])
        let message =
            #"libactivity: cannot write to ACTIVITY_SINK="file:/dev/full": No space left on device; reporting is off"#
        #expect(occurrences(of: message, in: result.errors) == 1, "stderr: \(result.errors)")
    }

    @Test("libactivity shows a hostile ACTIVITY_SINK, ACTIVITY_CONTROL and ACTIVITY_PARENT escaped")
    func cHostileSettings() async throws {
        let hostile = "bad\u{1B}]0;X\u{07}\u{1B}[2J\u{202E}"
        for name in ["ACTIVITY_SINK", "ACTIVITY_CONTROL", "ACTIVITY_PARENT", "ACTIVITY_TIMEOUT_MS"] {
            var settings = [name: hostile]
            if name != "ACTIVITY_SINK" { settings["ACTIVITY_SINK"] = "file:/dev/null" }
            let result = try await run(ConformanceTests.cProgram, with: settings)
            #expect(
                result.errors.contains(#"\x1b]0;X\x07\x1b[2J\u{202e}"#), "\(name): \(result.errors.debugDescription)")
            #expect(!result.errors.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(name)")
            #expect(!result.errors.unicodeScalars.contains("\u{202E}"), "\(name)")
        }
    }

    @Test("libactivity shows a hostile file: path escaped when it cannot be opened")
    func cHostilePath() async throws {
        let result = try await run(
            ConformanceTests.cProgram, with: ["ACTIVITY_SINK": "file:/nonexistent/\u{1B}[2J\u{202E}.jsonl"])
        #expect(result.errors.contains(#"cannot open file:/nonexistent/\x1b[2J\u{202e}.jsonl: No such file"#))
        #expect(!result.errors.unicodeScalars.contains("\u{1B}") && !result.errors.unicodeScalars.contains("\u{202E}"))
    }
}
