import ActivityWire

/// A recording as one self-contained HTML page, for a person who wants to know why a run took
/// as long as it did.
///
/// The page holds a summary, a timeline of every activity (nested as in the tree, coloured by
/// outcome, labelled with durations, details on hover and click, zoom on time, the critical
/// path outlined), the critical path as a table, the failures with their log lines, and the
/// slowest activities. It loads nothing from anywhere: styles and script are inline, fonts are
/// the system's. It reads well in light and dark schemes and prints (the timeline fits the
/// page, the tables follow). The same recording always gives the same bytes.
///
/// Large recordings stay usable: past ``budget`` activities, the shortest are folded into
/// aggregate bars (``TimelineBars``), and the tables list at most ``criticalPathRows`` and
/// ``failuresListed`` activities. A recording too large to hold whole is drawn from its
/// ``TimelineSkeleton`` and the few activities the ``ReportPlan`` names:
///
/// ```swift
/// let html = HTMLReportWriter(source: "build.jsonl").write(timeline)
///
/// // Or in two passes over a recording, never holding it whole:
/// var skeleton = TimelineSkeleton()
/// // first pass: skeleton.record(activity, parent: parentSequence) as each activity ends
/// skeleton.finish()
/// let plan = writer.plan(skeleton)
/// // second pass: kept[activity.sequence] = writer.shownPart(of: activity), for plan.needed alone
/// let html = writer.write(plan, looseLogCount: looseLogs.count) { kept[$0]! }
/// ```
public struct HTMLReportWriter: Sendable {
    /// The page heading; by default the first top-level activity's title.
    public var title: String?
    /// The recording's name, shown under the heading.
    public var source: String?
    /// How many lines of the recording were not events (they are counted in the summary).
    public var skippedLines = 0
    /// How many activities get bars of their own.
    public var budget = TimelineBars.defaultBudget
    /// How many activities the slowest table lists.
    public var slowestCount = 20
    /// How many log lines a failure shows.
    public var logLinesPerFailure = 200
    /// How many activities the critical-path table lists (the longest); the others are folded.
    public var criticalPathRows = 200
    /// How many failed or abandoned activities are listed with their logs.
    public var failuresListed = 500
    /// How many aggregate bars (those of the most members) name their longest member.
    public var namedAggregates = 1000

    public init(title: String? = nil, source: String? = nil, skippedLines: Int = 0) {
        self.title = title
        self.source = source
        self.skippedLines = skippedLines
    }

    /// The whole page.
    public func write(_ timeline: Timeline) -> String {
        write(plan(TimelineSkeleton(timeline)), looseLogCount: timeline.looseLogs.count) { timeline.activities[$0] }
    }

    /// What the page of a recording of this shape shows; ``ReportPlan/needed`` lists the
    /// activities ``write(_:looseLogCount:activity:)`` asks for.
    public func plan(_ skeleton: TimelineSkeleton) -> ReportPlan { ReportPlan(skeleton, writer: self) }

    /// The whole page of a planned recording: `activity` gives the activity of an index in
    /// ``ReportPlan/needed`` (with its title, message, attributes and logs; ``shownPart(of:)``
    /// of it is enough).
    public func write(
        _ plan: ReportPlan, looseLogCount: Int, activity: (Int) -> TimelineActivity
    ) -> String {
        withoutActuallyEscaping(activity) { activity in
            write(ReportPage(plan: plan, looseLogCount: looseLogCount, activity: activity))
        }
    }

    /// What the page can show of `activity`: all but its progress samples and the log lines past
    /// those a failure lists (or a bar's details carry). A report of a large recording keeps this
    /// of each activity its plan needs.
    public func shownPart(of activity: TimelineActivity) -> TimelineActivity {
        var part = activity
        part.samples = []
        part.logs = Array(part.logs.prefix(max(logLinesPerFailure, Self.detailLogLines)))
        return part
    }

    private func write(_ page: ReportPage) -> String {
        let plan = page.plan
        let activity = page.activity
        let skeleton = plan.skeleton
        let heading = title ?? skeleton.roots.first.map { activity($0).title } ?? "Recording"
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <meta name="generator" content="swift-activity">
            <title>\(MarkupText.escaped(heading)) · \(TimelineFormat.duration(skeleton.duration))</title>
            <style>
            \(ReportStylesheet.css)
            </style>
            </head>
            <body>
            <header>
            <h1>\(MarkupText.escaped(heading))</h1>
            <p class="sub">\(MarkupText.escaped(subtitle(skeleton)))</p>
            </header>

            """
        html += summary(page)
        html += timelineSection(page)
        html += criticalPathSection(page)
        html += failuresSection(page)
        html += slowestSection(page)
        html += "<script>\n\(ReportScript.javascript)\n</script>\n</body>\n</html>\n"
        return html
    }

    private func subtitle(_ skeleton: TimelineSkeleton) -> String {
        var parts = [TimelineFormat.duration(skeleton.duration), "\(skeleton.count) activities"]
        let failed = skeleton.count(.failure)
        if failed > 0 { parts.append("\(failed) failed") }
        if skeleton.count > 0 { parts.append("started " + TimelineFormat.utc(skeleton.start)) }
        if let source { parts.append(source) }
        return parts.joined(separator: " · ")
    }

    private func summary(_ page: ReportPage) -> String {
        let skeleton = page.plan.skeleton
        var stats: [(String, String)] = [
            ("Total time", TimelineFormat.duration(skeleton.duration)),
            ("Activities", TimelineFormat.count(Double(skeleton.count))),
        ]
        for status in ActivityEvent.Status.allCases {
            let count = skeleton.count(status)
            if count > 0 || status == .success || status == .failure {
                stats.append((status.label.prefix(1).uppercased() + status.label.dropFirst(), "\(count)"))
            }
        }
        stats.append(("Log lines", TimelineFormat.count(Double(page.looseLogCount + skeleton.activityLogCount))))
        stats.append(("Critical path", "\(page.plan.criticalPath.activities.count) activities"))
        if let longest = page.plan.longestStep {
            let activity = page.activity(longest)
            stats.append(("Longest step", "\(activity.title) (\(TimelineFormat.duration(activity.duration)))"))
        }
        if skippedLines > 0 { stats.append(("Lines not events", "\(skippedLines)")) }
        var html = "<section id=\"summary\">\n<h2>Summary</h2>\n<dl class=\"stats\">\n"
        for (name, value) in stats {
            html += "<div><dt>\(MarkupText.escaped(name))</dt><dd>\(MarkupText.escaped(value))</dd></div>\n"
        }
        return html + "</dl>\n</section>\n"
    }
}

/// A page being written: its plan and where its activities' text comes from.
struct ReportPage {
    let plan: ReportPlan
    let looseLogCount: Int
    let activity: (Int) -> TimelineActivity

    /// The titles from the top-level activity down to `index`; "…" stands for those between
    /// the top and the nearest ``ReportPlan/maxPathTitles`` when there are more.
    func path(of index: Int) -> [String] {
        let skeleton = plan.skeleton
        let ancestors = ReportPlan.titledAncestors(of: index, in: skeleton)
        var titles = [activity(index).title]
        for (position, ancestor) in ancestors.enumerated() {
            let skipsSome =
                position == ancestors.count - 1 && position > 0 && skeleton.parent(ancestors[position - 1]) != ancestor
            if skipsSome { titles.append("…") }
            titles.append(activity(ancestor).title)
        }
        return titles.reversed()
    }
}
