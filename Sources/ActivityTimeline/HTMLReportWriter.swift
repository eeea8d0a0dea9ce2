import ActivityWire

/// A recording as one self-contained HTML page, for a person who wants to know why a run took
/// as long as it did.
///
/// The page holds a summary, a timeline of every activity (nested as in the tree, coloured by
/// outcome, labelled with durations, details on hover and click, zoom on time, the critical
/// path outlined), the critical path as a table, every failure with its log lines, and the
/// slowest activities. It loads nothing from anywhere: styles and script are inline, fonts are
/// the system's. It reads well in light and dark schemes and prints (the timeline fits the
/// page, the tables follow). The same recording always gives the same bytes.
///
/// Large recordings stay usable: past ``budget`` activities, the shortest are folded into
/// aggregate bars (``TimelineBars``).
///
/// ```swift
/// let html = HTMLReportWriter(source: "build.jsonl").write(timeline)
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

    public init(title: String? = nil, source: String? = nil, skippedLines: Int = 0) {
        self.title = title
        self.source = source
        self.skippedLines = skippedLines
    }

    /// The whole page.
    public func write(_ timeline: Timeline) -> String {
        let path = CriticalPath(timeline)
        let layout = TimelineLayout(timeline)
        let heading = title ?? timeline.roots.first.map { timeline.activities[$0].title } ?? "Recording"
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <meta name="generator" content="swift-activity">
            <title>\(MarkupText.escaped(heading)) · \(TimelineFormat.duration(timeline.duration))</title>
            <style>
            \(ReportStylesheet.css)
            </style>
            </head>
            <body>
            <header>
            <h1>\(MarkupText.escaped(heading))</h1>
            <p class="sub">\(MarkupText.escaped(subtitle(timeline)))</p>
            </header>

            """
        page += summary(timeline, path: path)
        page += timelineSection(timeline, layout: layout, path: path)
        page += criticalPathSection(timeline, path: path)
        page += failuresSection(timeline)
        page += slowestSection(timeline, path: path)
        page += "<script>\n\(ReportScript.javascript)\n</script>\n</body>\n</html>\n"
        return page
    }

    private func subtitle(_ timeline: Timeline) -> String {
        var parts = [TimelineFormat.duration(timeline.duration), "\(timeline.activities.count) activities"]
        let failed = timeline.count(.failure)
        if failed > 0 { parts.append("\(failed) failed") }
        if !timeline.activities.isEmpty { parts.append("started " + TimelineFormat.utc(timeline.start)) }
        if let source { parts.append(source) }
        return parts.joined(separator: " · ")
    }

    private func summary(_ timeline: Timeline, path: CriticalPath) -> String {
        var stats: [(String, String)] = [
            ("Total time", TimelineFormat.duration(timeline.duration)),
            ("Activities", TimelineFormat.count(Double(timeline.activities.count))),
        ]
        for status in ActivityEvent.Status.allCases {
            let count = timeline.count(status)
            if count > 0 || status == .success || status == .failure {
                stats.append((status.label.prefix(1).uppercased() + status.label.dropFirst(), "\(count)"))
            }
        }
        let logs = timeline.activities.reduce(timeline.looseLogs.count) { $0 + $1.logCount }
        stats.append(("Log lines", TimelineFormat.count(Double(logs))))
        stats.append(("Critical path", "\(path.activities.count) activities"))
        if let longest = timeline.activities.indices.filter({ timeline.activities[$0].parent != nil })
            .max(by: { timeline.activities[$0].duration < timeline.activities[$1].duration })
        {
            let activity = timeline.activities[longest]
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
