import ActivityTimeline
import ActivityWire
import Foundation
import Testing

@Suite("Timeline: report, SVG, Chrome trace and OTLP writers")
struct WriterTests {
    @Test(
        "the same recording gives the same bytes (golden files)",
        arguments: ["report.html", "timeline.svg", "trace.json", "otlp.json"])
    func golden(name: String) throws {
        let timeline = try RecordingFixture.build()
        let output: String
        switch name {
        case "report.html": output = HTMLReportWriter(source: "build.jsonl").write(timeline)
        case "timeline.svg": output = SVGTimelineWriter().write(timeline)
        case "trace.json": output = ChromeTraceWriter().write(timeline)
        default: output = OTLPTraceWriter(serviceName: "ci", version: "0.1.0").write(timeline)
        }
        if RecordingFixture.recording { try RecordingFixture.record(output, as: name) }
        #expect(
            output == RecordingFixture.golden(name), "differs from Golden/\(name) (ACTIVITY_RECORD_GOLDEN=1 records)")
    }

    @Test("the report escapes text from the wire and loads nothing from elsewhere")
    func selfContained() throws {
        let html = HTMLReportWriter().write(try RecordingFixture.build())
        #expect(html.contains("Download &lt;toolchain&gt;"))
        #expect(!html.contains("<toolchain>"))
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("src="))
        #expect(html.components(separatedBy: "class=\"bar st-").count - 1 == 9)
    }

    @Test("OTLP ids are hex, stable, and shared along a trace; times are nanosecond strings")
    func otlp() throws {
        let timeline = try RecordingFixture.build()
        let span = OTLPSpanEncoder().span(for: timeline.activities[1])
        let trace = TraceIdentifiers.traceID(root: ActivityID("b")!)
        #expect(trace.count == 32 && trace.allSatisfy(\.isHexDigit))
        #expect(span.contains("\"traceId\":\"\(trace)\""))
        #expect(
            span.contains("\"parentSpanId\":\"\(TraceIdentifiers.spanID(ActivityID("b")!, root: ActivityID("b")!))\""))
        #expect(span.contains("\"startTimeUnixNano\":\"1700000000100000000\""))
        #expect(span.contains("\"status\":{\"code\":1}"))
    }

    @Test("overlapping siblings become async slices; nested ones complete events")
    func chromeTrace() throws {
        let trace = ChromeTraceWriter().write(try RecordingFixture.build())
        #expect(trace.contains(#""ph":"X","pid":1,"tid":1,"cat":"activity","name":"Build""#))
        #expect(trace.contains(#""ph":"b","pid":1,"tid":1,"cat":"activity","name":"util.c","id":"c2""#))
        #expect(trace.contains(#""ph":"C""#))
    }

    @Test("100,000 activities: bars up to the budget, the rest aggregated, failures kept")
    func large() throws {
        var activities: [TimelineActivity] = []
        let root = ActivityID("root")!
        var rootActivity = TimelineActivity(
            id: root, title: "Build", parentID: nil, parent: nil, depth: 0, rootID: root, start: 0, completed: 0,
            total: nil, unit: nil, message: nil, attrs: [:])
        rootActivity.end = 1000
        rootActivity.status = .success
        activities.append(rootActivity)
        for step in 0..<100_000 {
            let id = ActivityID("s\(step)")!
            var activity = TimelineActivity(
                id: id, title: "step \(step)", parentID: root, parent: 0, depth: 1, rootID: root,
                start: Double(step) * 0.01, completed: 0, total: nil, unit: nil, message: nil, attrs: [:])
            activity.end = activity.start + (step % 1000 == 0 ? 5 : 0.02)
            activity.status = step == 77 ? .failure : .success
            activities.append(activity)
            activities[0].children.append(activities.count - 1)
        }
        let timeline = Timeline(activities: activities)
        let path = CriticalPath(timeline)
        let bars = TimelineBars(timeline, layout: TimelineLayout(timeline), criticalPath: path, budget: 2000)
        #expect(bars.shown.count <= 2000 + path.activities.count + 1)
        #expect(bars.shown.contains(78))
        #expect(bars.aggregates.reduce(0) { $0 + $1.members.count } + bars.shown.count == activities.count)
        let html = HTMLReportWriter().write(timeline)
        #expect(html.count < 40_000_000)
    }
}
