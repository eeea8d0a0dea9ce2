import ActivityTimeline
import ActivityWire
import Foundation
import TestSupport
import Testing

/// A report of a large recording keeps the text of only the activities its page shows; the
/// page is the same as the whole timeline's.
@Suite("Timeline: a report's plan bounds the activities whose text it keeps")
struct ReportPlanTests {
    static func timeline(_ shape: LargeRecording.Shape, activities: Int) throws -> Timeline {
        try Timeline.read(BytesSource(Array(LargeRecording.lines(shape, activities: activities).utf8))).timeline
    }

    @Test(
        "50,000 activities: the text kept is within the plan's budget, which does not grow with the recording",
        arguments: LargeRecording.Shape.allCases)
    func bounded(shape: LargeRecording.Shape) throws {
        let timeline = try Self.timeline(shape, activities: 50_000)
        try #require(timeline.activities.count >= 49_000)
        let writer = HTMLReportWriter()
        let plan = writer.plan(TimelineSkeleton(timeline))
        // The budget depends on the writer's limits alone, and is well below the recording's size.
        #expect(plan.textBudget < timeline.activities.count / 2)
        #expect(plan.needed.count <= plan.textBudget)
        #expect(plan.bars.shown.count <= writer.budget)
        #expect(plan.failures.count <= writer.failuresListed)
        #expect(plan.pathRows.count <= 2 * writer.criticalPathRows + 1)
        #expect(plan.aggregateLongest.compactMap { $0 }.count <= writer.namedAggregates)
    }

    @Test(
        "the page asks for no activity outside the plan, and what it shows of one is enough",
        arguments: LargeRecording.Shape.allCases)
    func samePage(shape: LargeRecording.Shape) throws {
        let timeline = try Self.timeline(shape, activities: 12_000)
        var writer = HTMLReportWriter(source: "large.jsonl")
        writer.budget = 2000
        writer.failuresListed = 40
        writer.criticalPathRows = 30
        let plan = writer.plan(TimelineSkeleton(timeline))
        let needed = Set(plan.needed)
        var outside: Set<Int> = []
        let page = writer.write(plan, looseLogCount: timeline.looseLogs.count) { index in
            if !needed.contains(index) { outside.insert(index) }
            return writer.shownPart(of: timeline.activities[index])
        }
        #expect(outside.isEmpty)
        #expect(page == writer.write(timeline))
        #expect(page.contains("class=\"bar agg"))
    }

    @Test("the SVG image asks for no activity outside its drawing's", arguments: LargeRecording.Shape.allCases)
    func sameImage(shape: LargeRecording.Shape) throws {
        let timeline = try Self.timeline(shape, activities: 12_000)
        var writer = SVGTimelineWriter()
        writer.budget = 2000
        let drawing = writer.drawing(TimelineSkeleton(timeline))
        let needed = Set(drawing.needed)
        #expect(needed.count <= writer.budget + 1)
        var outside: Set<Int> = []
        let image = writer.write(drawing) { index in
            if !needed.contains(index) { outside.insert(index) }
            return writer.shownPart(of: timeline.activities[index])
        }
        #expect(outside.isEmpty)
        #expect(image == writer.write(timeline))
    }

    @Test("the critical path past its rows, and failures past those listed, are told as counts")
    func folded() throws {
        let timeline = try Self.timeline(.testRun, activities: 12_000)
        var writer = HTMLReportWriter()
        writer.failuresListed = 40
        writer.criticalPathRows = 30
        let html = writer.write(timeline)
        let failed = timeline.count(.failure) + timeline.count(.abandoned)
        #expect(html.contains("… and \(failed - 40) more (the first 40 are listed)."))
        #expect(html.components(separatedBy: "<div class=\"failure ").count - 1 == 40)
        #expect(html.contains("shorter activities of the path"))
    }

    @Test("a path deeper than the titles it shows keeps the top-level one and the nearest, with … between")
    func deepPath() throws {
        let timeline = try Self.timeline(.deep, activities: 1_000)
        let leaf = try #require(timeline.activities.firstIndex { $0.title == "chain 0 level 99" })
        let plan = HTMLReportWriter().plan(TimelineSkeleton(timeline))
        let ancestors = ReportPlan.titledAncestors(of: leaf, in: plan.skeleton)
        #expect(ancestors.count == ReportPlan.maxPathTitles - 1)
        #expect(timeline.activities[ancestors.last!].title == "Test run")
        #expect(timeline.activities[ancestors.first!].title == "chain 0 level 98")
        let html = HTMLReportWriter().write(timeline)
        #expect(html.contains("Test run › … › chain 0 level 85 › "))
    }
}
