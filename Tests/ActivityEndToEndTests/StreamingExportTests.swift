import ActivityTimeline
import ActivityWire
import Foundation
import TestSupport
import Testing

/// `activity export` forgets activities as they end and writes its output a piece at a time; what
/// it writes must be, byte for byte, what the writers make of the whole timeline.
@Suite("activity export: streamed output, the same bytes as the whole timeline's")
struct StreamingExportTests {
    static let golden = Repository.root.appendingPathComponent("Tests/ActivityTimelineTests/Golden")

    /// A recording that breaks every assumption a streaming export could make: times going
    /// backwards, a loose log line before the first begin, an id begun again after it ended, an
    /// end that abandons open children, overlapping siblings, a child outside its parent, a bad
    /// line, activities left open at the end, and more counter candidates than tracks (with ties).
    static let hostile: String = {
        var lines = [
            #"{"v":1,"type":"log","ts":99.5,"level":"info","message":"before anything <b>"}"#,
            #"{"v":1,"type":"begin","ts":100,"id":"root","title":"Root"}"#,
            #"{"v":1,"type":"begin","ts":101,"id":"a","parent":"root","title":"A","total":10}"#,
            #"{"v":1,"type":"begin","ts":100.5,"id":"b","parent":"root","title":"B"}"#,
            #"{"v":1,"type":"log","ts":101.2,"id":"b","level":"warning","message":"in b"}"#,
            #"{"v":1,"type":"end","ts":102,"id":"b","status":"failure","error":"boom"}"#,
            #"{"v":1,"type":"begin","ts":103,"id":"b","parent":"root","title":"B again"}"#,
            #"{"v":1,"type":"begin","ts":103,"id":"c","parent":"a","title":"C"}"#,
            #"{"v":1,"type":"begin","ts":103.5,"id":"d","parent":"c","title":"D","attrs":{"k":"v","n":2}}"#,
            #"{"v":1,"type":"end","ts":104,"id":"a","status":"success"}"#,
            "not json",
            #"{"v":1,"type":"begin","ts":104,"id":"e","title":"Second root"}"#,
            #"{"v":1,"type":"log","level":"error","message":"no ts, no id"}"#,
        ]
        for track in 0..<105 {
            let id = "\"id\":\"p\(track)\""
            lines.append(#"{"v":1,"type":"begin","ts":105,"# + id + #","parent":"e","title":"P\#(track)","total":100}"#)
            for step in 0...(track % 7) {
                let ts = 105 + Double(step) / 10
                lines.append(#"{"v":1,"type":"progress","ts":\#(ts),"# + id + #","completed":\#(step + 1)}"#)
            }
            if track % 3 == 0 { lines.append(#"{"v":1,"type":"end","ts":107,"id":"p\#(track)","status":"success"}"#) }
        }
        lines.append(#"{"v":1,"type":"begin","ts":90,"id":"early","parent":"root","title":"Before its parent"}"#)
        return lines.joined(separator: "\n") + "\n"
    }()

    /// The spans array and what follows: the request's opening names the service and version.
    static func spans(_ text: String) -> Substring {
        text.range(of: "\"spans\":[").map { text[$0.lowerBound...] } ?? Substring(text)
    }

    @Test("the golden recording exports to the golden trace.json and otlp.json, from a file and from standard input")
    func golden() throws {
        let recording = Self.golden.appendingPathComponent("build.jsonl")
        let trace = try String(contentsOf: Self.golden.appendingPathComponent("trace.json"), encoding: .utf8)
        let otlp = try String(contentsOf: Self.golden.appendingPathComponent("otlp.json"), encoding: .utf8)
        let fromFile = try CommandRunner.activity(["export", "--format", "chrome-trace", recording.path])
        let fromInput = try CommandRunner.activity(
            ["export", "--format", "chrome-trace", "-"], input: try Data(contentsOf: recording))
        #expect(fromFile.status == 0 && fromInput.status == 0)
        #expect(fromFile.standardOutput == trace)
        #expect(fromInput.standardOutput == trace)
        let spans = try CommandRunner.activity(["export", "--format", "otlp-json", recording.path])
        let spansFromInput = try CommandRunner.activity(
            ["export", "--format", "otlp-json", "-"], input: try Data(contentsOf: recording))
        #expect(spans.status == 0 && spansFromInput.status == 0)
        #expect(Self.spans(spans.standardOutput) == Self.spans(otlp))
        #expect(spansFromInput.standardOutput == spans.standardOutput)
    }

    @Test("a hostile recording exports as the writers write its whole timeline", arguments: ["file", "-"])
    func hostile(source: String) throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("hostile.jsonl").path
        try Self.hostile.write(toFile: path, atomically: true, encoding: .utf8)
        let timeline = try Timeline.read(BytesSource(Array(Self.hostile.utf8))).timeline
        let arguments = source == "-" ? ["-"] : [path]
        let input = source == "-" ? Data(Self.hostile.utf8) : nil
        let trace = try CommandRunner.activity(["export", "--format", "chrome-trace"] + arguments, input: input)
        #expect(trace.status == 0)
        #expect(trace.standardError.contains("hostile.jsonl:11") || source == "-")
        #expect(trace.standardOutput == ChromeTraceWriter().write(timeline))
        let otlp = try CommandRunner.activity(["export", "--format", "otlp-json"] + arguments, input: input)
        #expect(otlp.status == 0)
        #expect(Self.spans(otlp.standardOutput) == Self.spans(OTLPTraceWriter(version: "").write(timeline)))
    }

    @Test("a line that is not an event is named once, though the Chrome trace reads the file twice")
    func problemsOnce() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("hostile.jsonl").path
        try Self.hostile.write(toFile: path, atomically: true, encoding: .utf8)
        let trace = try CommandRunner.activity(["export", "--format", "chrome-trace", path])
        #expect(trace.standardError.components(separatedBy: "hostile.jsonl:11:").count - 1 == 1)
    }

    @Test("no events: exit 65 and no output file, in both formats", arguments: ["chrome-trace", "otlp-json"])
    func empty(format: String) throws {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("out.json").path
        let result = try CommandRunner.activity(
            ["export", "--format", format, "-o", output, "-"], input: Data("just text\n".utf8))
        #expect(result.status == 65)
        #expect(result.standardError.contains("not a recording"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test(
        "TMPDIR unusable: a message naming it, exit 74, no output file, in both formats",
        arguments: ["chrome-trace", "otlp-json"])
    func temporaryFile(format: String) throws {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("out.json").path
        let recording = Self.golden.appendingPathComponent("build.jsonl").path
        let result = try CommandRunner.activity(
            ["export", "--format", format, "-o", output, "-"],
            input: try Data(contentsOf: URL(fileURLWithPath: recording)),
            environment: ["TMPDIR": folder.url.appendingPathComponent("missing").path])
        #expect(result.status == 74)
        #expect(result.standardError.contains("activity export: temporary file in TMPDIR: "))
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
