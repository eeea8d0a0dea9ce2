import ActivityTimeline
import ActivityWire
import Foundation
import TestSupport
import Testing

/// `activity report` reads a recording twice and keeps only what its page shows; the page must
/// be, byte for byte, what the writer makes of the whole timeline.
@Suite("activity report: two passes, the same page as the whole timeline's")
struct StreamingReportTests {
    static func page(of text: String, source: String?, skippedLines: Int = 0) throws -> String {
        let timeline = try Timeline.read(BytesSource(Array(text.utf8))).timeline
        return HTMLReportWriter(source: source, skippedLines: skippedLines).write(timeline)
    }

    @Test("the golden recording gives the golden page from a file, and the same less its name from standard input")
    func golden() throws {
        let recording = StreamingExportTests.golden.appendingPathComponent("build.jsonl")
        let golden = StreamingExportTests.golden.appendingPathComponent("report.html")
        let page = try String(contentsOf: golden, encoding: .utf8)
        let fromFile = try CommandRunner.activity(["report", recording.path, "-o", "-"])
        #expect(fromFile.status == 0)
        #expect(fromFile.standardOutput == page)
        let text = try String(contentsOf: recording, encoding: .utf8)
        let fromInput = try CommandRunner.activity(["report", "-", "-o", "-"], input: Data(text.utf8))
        #expect(fromInput.status == 0)
        #expect(fromInput.standardOutput == (try Self.page(of: text, source: nil)))
    }

    @Test("a hostile recording, named once for its bad line", arguments: ["file", "-", "pipe"])
    func hostile(source: String) throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("hostile.jsonl").path
        let text = StreamingExportTests.hostile
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Self.report(path, from: source, ["-o", "-"])
        #expect(result.status == 0)
        #expect(result.standardError.components(separatedBy: ":11: invalid-json:").count - 1 == 1)
        let expected = try Self.page(of: text, source: source == "file" ? "hostile.jsonl" : nil, skippedLines: 1)
        #expect(result.standardOutput == expected)
    }

    /// `activity report ARGUMENTS` reading `path` as a file, as standard input that is a file, or
    /// through a pipe (which it must copy to a temporary file for its two passes).
    static func report(
        _ path: String, from source: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> CommandResult {
        switch source {
        case "file": return try CommandRunner.activity(["report", path] + arguments, environment: environment)
        case "-":
            return try CommandRunner.activity(
                ["report", "-"] + arguments, input: try Data(contentsOf: URL(fileURLWithPath: path)),
                environment: environment)
        default:
            return try CommandRunner.run(
                "/bin/sh", ["-c", #"file=$1; shift; cat "$file" | activity report - "$@""#, "sh", path] + arguments,
                environment: environment)
        }
    }

    @Test(
        "12,013 activities, more than the bars, the failures listed and the path's rows: the whole timeline's page",
        arguments: ["file", "-", "pipe"])
    func large(source: String) throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("large.jsonl").path
        let text = LargeRecording.lines(.testRun, activities: 12_013, failEvery: 20)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Self.report(path, from: source, ["-o", "-"])
        #expect(result.status == 0, "\(result.standardError)")
        let page = result.standardOutput
        #expect(page == (try Self.page(of: text, source: source == "file" ? "large.jsonl" : nil)))
        #expect(page.contains("class=\"bar agg"))
        #expect(page.contains("… and 100 more (the first 500 are listed)."))
        #expect(page.contains("shorter activities of the path"))
    }

    @Test(
        "--format svg, of the golden and of 12,013 activities: the whole timeline's image", arguments: ["file", "pipe"])
    func svg(source: String) throws {
        let folder = try TemporaryFolder()
        let golden = try String(
            contentsOf: StreamingExportTests.golden.appendingPathComponent("timeline.svg"), encoding: .utf8)
        let recording = StreamingExportTests.golden.appendingPathComponent("build.jsonl").path
        let small = try Self.report(recording, from: source, ["--format", "svg", "-o", "-"])
        #expect(small.status == 0)
        #expect(small.standardOutput == golden)
        let path = folder.url.appendingPathComponent("large.jsonl").path
        let text = LargeRecording.lines(.testRun, activities: 12_013, failEvery: 20)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let large = try Self.report(path, from: source, ["--format", "svg", "-o", "-"])
        #expect(large.status == 0)
        let timeline = try Timeline.read(BytesSource(Array(text.utf8))).timeline
        #expect(large.standardOutput == SVGTimelineWriter().write(timeline))
        #expect(large.standardOutput.contains("<rect class=\"agg\""))
    }

    @Test("a pipe with TMPDIR unusable: a message naming it, exit 74, no output file")
    func temporaryFile() throws {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("out.html").path
        let recording = StreamingExportTests.golden.appendingPathComponent("build.jsonl").path
        let result = try Self.report(
            recording, from: "pipe", ["-o", output],
            environment: ["TMPDIR": folder.url.appendingPathComponent("missing").path])
        #expect(result.status == 74)
        #expect(result.standardError.contains("activity report: temporary file in TMPDIR: "))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("no events on standard input: exit 65 and no output file")
    func empty() throws {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("out.html").path
        let result = try CommandRunner.activity(["report", "-o", output, "-"], input: Data("just text\n".utf8))
        #expect(result.status == 65)
        #expect(result.standardError.contains("not a recording"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
