import ActivityWire

/// The timeline section: axis, bars, aggregates, and the data the script shows as details.
extension HTMLReportWriter {
    /// The row height in pixels; the stylesheet's `--row`.
    static let rowHeight = 24
    /// How many log lines a bar's details carry.
    static let detailLogLines = 20

    func timelineSection(_ page: ReportPage) -> String {
        let plan = page.plan
        let skeleton = plan.skeleton
        let layout = plan.layout
        let path = plan.criticalPath
        let bars = plan.bars
        let duration = skeleton.duration
        func percent(_ time: Double) -> String {
            TimelineFormat.fixed(duration > 0 ? (time - skeleton.start) / duration * 100 : 0, decimals: 4)
        }
        func width(_ start: Double, _ end: Double) -> String {
            TimelineFormat.fixed(duration > 0 ? (end - start) / duration * 100 : 0, decimals: 4)
        }
        var html = """
            <section id="timeline">
            <h2>Timeline</h2>
            <div class="toolbar" role="group" aria-label="Zoom">
            <button id="zoom-out" type="button" aria-label="Zoom out">−</button>
            <button id="zoom-fit" type="button">Fit</button>
            <button id="zoom-in" type="button" aria-label="Zoom in">+</button>
            <span id="zoom-level" class="muted">1.0×</span>
            <span class="muted">Ctrl or ⌘ with the wheel zooms too.</span>
            <div class="legend">\(legend)</div>
            </div>
            <div class="tl-scroll">
            <div class="tl" data-duration="\(TimelineFormat.json(duration))" role="group" aria-label="\
            \(MarkupText.escaped(ariaSummary(skeleton, bars: bars)))">
            <div class="axis">
            """
        let step = TimeAxis.step(for: duration, pixels: 1200)
        for tick in TimeAxis.ticks(for: duration, pixels: 1200) {
            // A label near the right end is drawn left of its tick, inside the box (the script uses 80 px).
            let end = duration - tick < duration * 0.05
            html +=
                "<div class=\"tick\(end ? " end" : "")\" style=\"left:\(percent(skeleton.start + tick))%\"><span>"
                + "\(TimeAxis.label(tick, step: step))</span></div>"
        }
        html += "</div>\n<div class=\"lanes\" style=\"height:\(max(1, layout.rowCount) * Self.rowHeight)px\">\n"
        var data: [String] = []
        let focusable = bars.shown.count <= 5000
        // Aggregates first, so the bars drawn among them (failures, the critical path) paint over them.
        for (number, aggregate) in bars.aggregates.enumerated() {
            let failures = aggregate.members.filter { skeleton.outcomes[$0] == .failure }.count
            html +=
                "<div class=\"bar agg\(failures > 0 ? " has-failure" : "")\" data-k=\"\(data.count)\" "
                + "style=\"left:\(percent(aggregate.start))%;width:\(width(aggregate.start, aggregate.end))%;"
                + "top:\(aggregate.row * Self.rowHeight)px\">\(aggregate.members.count) activities</div>\n"
            data.append(detail(of: aggregate, longest: plan.aggregateLongest[number], in: page))
        }
        for index in bars.shown {
            let activity = page.activity(index)
            var classes = "bar st-\(activity.outcome.rawValue)"
            if path.contains(index) { classes += " cp" }
            let symbol = activity.outcome == .success ? "" : activity.outcome.symbol + " "
            html +=
                "<div class=\"\(classes)\" data-k=\"\(data.count)\" style=\"left:\(percent(activity.start))%;"
                + "width:\(width(activity.start, activity.end))%;top:\(layout.rows[index] * Self.rowHeight)px\""
                + (focusable ? " tabindex=\"0\"" : "") + ">"
                + MarkupText.escaped(symbol + activity.title + " · " + TimelineFormat.duration(activity.duration))
                + "</div>\n"
            data.append(detail(of: index, in: page, onPath: path.contains(index)))
        }
        html += """
            </div>
            </div>
            </div>
            <div id="tip" role="tooltip" hidden></div>
            <aside id="details" aria-live="polite"><p class="muted">Hover over a bar for its details; click it \
            (or press Enter on it) to keep them here.</p></aside>
            <script type="application/json" id="activity-data">[
            """
        html += data.joined(separator: ",\n") + "]</script>\n</section>\n"
        return html
    }

    private var legend: String {
        ActivityEvent.Status.allCases.map { "<span style=\"--c:var(--\($0.rawValue))\">\($0.label)</span>" }.joined()
            + "<span class=\"lg-cp\">critical path</span>"
    }

    private func ariaSummary(_ skeleton: TimelineSkeleton, bars: TimelineBars) -> String {
        "Timeline of \(skeleton.count) activities over \(TimelineFormat.duration(skeleton.duration))"
            + (bars.aggregates.isEmpty ? "" : ", the shortest grouped") + "; the tables below list the same facts."
    }

    /// The details of one bar, as JSON: title, status, label–value pairs, first log lines.
    private func detail(of index: Int, in page: ReportPage, onPath: Bool) -> String {
        let skeleton = page.plan.skeleton
        let activity = page.activity(index)
        let path = page.path(of: index)
        var pairs: [(String, String)] = [
            ("Status", activity.outcome.label),
            (
                "Duration",
                TimelineFormat.duration(activity.duration)
                    + " (\(TimelineFormat.percent(activity.duration, of: skeleton.duration)) of the run)"
            ),
            ("Started", TimelineFormat.offset(activity.start - skeleton.start)),
        ]
        if path.count > 1 { pairs.append(("In", path.dropLast().joined(separator: " › "))) }
        if let message = activity.message { pairs.append(("Message", message)) }
        if let error = activity.error { pairs.append(("Error", error)) }
        if activity.total != nil || activity.completed > 0 {
            pairs.append(
                (
                    "Progress",
                    TimelineFormat.progress(completed: activity.completed, total: activity.total, unit: activity.unit)
                ))
        }
        if let rate = activity.rate { pairs.append(("Rate", TimelineFormat.rate(rate, unit: activity.unit))) }
        for key in activity.attrs.keys.sorted() { pairs.append((key, Self.text(activity.attrs[key]!))) }
        let children = skeleton.children(index).count
        if children > 0 { pairs.append(("Children", "\(children)")) }
        if activity.logCount > 0 { pairs.append(("Log lines", "\(activity.logCount)")) }
        if onPath { pairs.append(("Critical path", "yes")) }
        pairs.append(("Id", activity.id.rawValue))
        let logs = activity.logs.prefix(Self.detailLogLines).map { log in
            MarkupText.json("\(TimelineFormat.offset(log.time - skeleton.start)) \(log.level.rawValue): \(log.message)")
        }
        return "{\"t\":\(MarkupText.json(activity.title)),\"s\":\"\(activity.outcome.rawValue)\",\"d\":["
            + pairs.map { "[\(MarkupText.json($0.0)),\(MarkupText.json($0.1))]" }.joined(separator: ",")
            + "],\"l\":[" + logs.joined(separator: ",") + "]}"
    }

    private func detail(of aggregate: TimelineBars.Aggregate, longest: Int?, in page: ReportPage) -> String {
        let skeleton = page.plan.skeleton
        var pairs: [(String, String)] = [
            ("Activities", "\(aggregate.members.count), each too short to draw on its own"),
            ("Span", TimelineFormat.duration(aggregate.end - aggregate.start)),
            ("Started", TimelineFormat.offset(aggregate.start - skeleton.start)),
        ]
        for status in ActivityEvent.Status.allCases {
            let count = aggregate.members.filter { skeleton.outcomes[$0] == status }.count
            if count > 0 { pairs.append((status.label, "\(count)")) }
        }
        if let longest {
            let activity = page.activity(longest)
            pairs.append(("Longest", "\(activity.title) (\(TimelineFormat.duration(activity.duration)))"))
        }
        return "{\"t\":\"\(aggregate.members.count) activities\",\"s\":\"success\",\"d\":["
            + pairs.map { "[\(MarkupText.json($0.0)),\(MarkupText.json($0.1))]" }.joined(separator: ",") + "],\"l\":[]}"
    }

    static func text(_ value: AttributeValue) -> String {
        switch value {
        case .string(let text): text
        case .number(let number): TimelineFormat.json(number)
        case .bool(let flag): flag ? "true" : "false"
        }
    }
}
