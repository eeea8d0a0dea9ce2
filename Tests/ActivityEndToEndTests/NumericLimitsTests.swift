import Foundation
import TestSupport
import Testing

/// Streams at the edges of the numeric range the spec allows: each once ended the process with a
/// trap (exit 132) in a conversion to an integer.
@Suite("numbers at the spec's limits: no crash in any consumer")
struct NumericLimitsTests {
    static let hugeETA = """
        {"v":1,"type":"begin","ts":1764417600,"id":"a","title":"t","total":4503599627370496}
        {"v":1,"type":"progress","ts":1765417600,"id":"a","completed":2}

        """
    static let compile = """
        {"v":1,"type":"begin","ts":1764417600,"id":"a","title":"C"}
        {"v":1,"type":"end","ts":1764417601,"id":"a","status":"success"}

        """
    static let lateBegin = """
        {"v":1,"type":"begin","ts":20000000000,"id":"a","title":"t"}
        {"v":1,"type":"end","ts":20000000001,"id":"a","status":"success"}

        """

    /// A history file whose one entry, for `title`, has a duration no count can hold.
    static func history(duration: String, title: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.url.appendingPathComponent("h").path
        try "activity-history 1\n1714000112.5\t0\t-\t\(duration)\t\(title)\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("an ETA beyond Int's range in plain mode: shown in days, no crash")
    func etaBeyondInt() throws {
        let result = try CommandRunner.activity(["render", "--mode", "plain"], input: Data(Self.hugeETA.utf8))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("ETA "))
    }

    @Test("an ETA beyond Int's range under run: the command runs to its end")
    func etaBeyondIntLive() throws {
        let folder = try TemporaryFolder()
        let events = folder.url.appendingPathComponent("events.jsonl")
        try Self.hugeETA.write(to: events, atomically: true, encoding: .utf8)
        // The reporter writes the lines to run's socket itself, with the timestamps it chooses.
        let send = """
            import os, socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.connect(os.environ["ACTIVITY_SINK"].removeprefix("unix:"))
            s.sendall(open(sys.argv[1], "rb").read())
            s.shutdown(socket.SHUT_WR)
            print("done")
            """
        let result = try CommandRunner.activity(
            ["run", "--mode", "plain", "--", "python3", "-c", send, events.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasSuffix("done\n"))
    }

    @Test(
        "a history duration of 1e300 or 99999999999999999999: the line dropped with a warning",
        arguments: [
            "1e300", "99999999999999999999",
        ])
    func hugeHistoryDuration(_ duration: String) throws {
        let folder = try TemporaryFolder()
        let history = try Self.history(duration: duration, title: "C", in: folder)
        let rendered = try CommandRunner.activity(
            ["render", "--mode", "plain", "--history", history], input: Data(Self.compile.utf8))
        #expect(rendered.status == 0, "\(rendered.standardError)")
        #expect(rendered.standardError.contains("unreadable lines dropped"), "\(rendered.standardError)")
        #expect(!rendered.standardError.contains("usually"))
        // Under run, the command's own activity is titled with its command line.
        _ = try Self.history(duration: duration, title: "true", in: folder)
        let run = try CommandRunner.activity(["run", "--mode", "plain", "--history", history, "--", "true"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("unreadable lines dropped"), "\(run.standardError)")
    }

    @Test("otlp-json export of a begin at ts 20000000000: nanoseconds saturate, no crash")
    func otlpLateBegin() throws {
        let result = try CommandRunner.activity(
            ["export", "--format", "otlp-json", "-"], input: Data(Self.lateBegin.utf8))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains(#""startTimeUnixNano":"18446744073709551615""#))
    }

    @Test("chrome-trace export of an end at ts 9.3e12: no crash")
    func chromeTraceLateEnd() throws {
        let stream = """
            {"v":1,"type":"begin","ts":1,"id":"a","title":"t"}
            {"v":1,"type":"end","ts":9.3e12,"id":"a","status":"success"}

            """
        let result = try CommandRunner.activity(["export", "--format", "chrome-trace", "-"], input: Data(stream.utf8))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains(#""dur":9223372036854775807"#), "\(result.standardOutput)")
    }

    @Test("render --otlp-endpoint of a begin at ts 20000000000: the span reaches a local server")
    func otlpLiveLateBegin() throws {
        let folder = try TemporaryFolder()
        let (pid, port) = try OTLPExportTests.server("record", in: folder)
        defer { OTLPExportTests.stop(pid) }
        let result = try CommandRunner.activity(
            ["render", "--mode", "plain", "--otlp-endpoint", "http://127.0.0.1:\(port)"],
            input: Data(Self.lateBegin.utf8))
        #expect(result.status == 0, "\(result.standardError)")
        let bodies = try OTLPExportTests.bodies(in: folder)
        let all = try bodies.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined()
        #expect(all.contains(#""startTimeUnixNano":"18446744073709551615""#), "\(all)")
    }
}

@Suite("Scripts/check-integer-conversions: every floating value becomes an integer through one helper")
struct IntegerConversionCheckTests {
    static let script = Repository.path("Scripts/check-integer-conversions")

    @Test("Sources/ has no conversion that bypasses init(saturating:rounding:)")
    func sourcesPass() throws {
        let result = try CommandRunner.run(Self.script, [Repository.path("Sources")])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    }

    @Test(
        "a new bypass is found, with its file and line",
        arguments: [
            "let x = Int64((rate * 1000).rounded())",
            "func eta(_ seconds: Double) -> Int { Int(seconds) }",
            "let n = UInt64(activity.elapsed)\nstruct A { var elapsed: Double }",
            "let n = Int32(1.5e3)",
        ])
    func bypassFound(_ sample: String) throws {
        let folder = try TemporaryFolder()
        try ("var rate: Double = 0\n" + sample + "\n").write(
            to: folder.url.appendingPathComponent("Sample.swift"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(Self.script, [folder.url.path])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("Sample.swift:2: "), "\(result.standardOutput)")
    }

    @Test("integer conversions of integers, the helper and Int(exactly:) pass")
    func integersPass() throws {
        let folder = try TemporaryFolder()
        let sample = """
            let count: Int = 3
            let a = Int64(count)
            let b = Int(saturating: 1e300)
            let c = Int32(exactly: 2.0)
            let d = UInt8(ascii: "a")
            """
        try sample.write(to: folder.url.appendingPathComponent("Sample.swift"), atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(Self.script, [folder.url.path])
        #expect(result.status == 0, "\(result.standardOutput)")
    }
}
