import ActivityWire

/// The timeline alone as an SVG image, for a README or a chat: bars nested as in the tree,
/// coloured by outcome (light and dark schemes), labelled where they are wide enough, the
/// critical path outlined, a tooltip (`<title>`) on every bar.
///
/// ```swift
/// let svg = SVGTimelineWriter(width: 1200).write(timeline)
/// ```
public struct SVGTimelineWriter: Sendable {
    /// The image width in pixels; the height follows from the rows.
    public var width: Int
    /// The heading; by default the first top-level activity's title.
    public var title: String?
    /// How many activities get bars of their own (``TimelineBars``).
    public var budget = TimelineBars.defaultBudget

    public init(width: Int = 1200, title: String? = nil) {
        self.width = width
        self.title = title
    }

    static let rowHeight = 20
    static let top = 56

    public func write(_ timeline: Timeline) -> String {
        write(drawing(TimelineSkeleton(timeline))) { timeline.activities[$0] }
    }

    /// Where the image of a recording of this shape puts its activities; ``TimelineDrawing/needed``
    /// lists those ``write(_:activity:)`` asks for.
    public func drawing(_ skeleton: TimelineSkeleton) -> TimelineDrawing { TimelineDrawing(skeleton, budget: budget) }

    /// What the image shows of `activity`: its title, times, outcome, message and error.
    public func shownPart(of activity: TimelineActivity) -> TimelineActivity {
        var part = activity
        part.logs = []
        part.samples = []
        part.attrs = [:]
        return part
    }

    /// The image of a planned recording: `activity` gives the activity of an index in
    /// ``TimelineDrawing/needed`` (``shownPart(of:)`` of it is enough).
    public func write(_ drawing: TimelineDrawing, activity lookup: (Int) -> TimelineActivity) -> String {
        let skeleton = drawing.skeleton
        let path = drawing.criticalPath
        let layout = drawing.layout
        let bars = drawing.bars
        let duration = skeleton.duration
        let plot = Double(width - 2)
        func x(_ time: Double) -> Double { 1 + (duration > 0 ? (time - skeleton.start) / duration * plot : 0) }
        func number(_ value: Double) -> String { TimelineFormat.fixed(value, decimals: 2) }
        let height = Self.top + max(1, layout.rowCount) * Self.rowHeight + 8
        let heading = title ?? skeleton.roots.first.map { lookup($0).title } ?? "Recording"
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
            font-family="system-ui,-apple-system,'Segoe UI',sans-serif" font-size="11" role="img" \
            aria-label="\(MarkupText.escaped(heading)): timeline of \(skeleton.count) activities">
            <style>
            .bg{fill:#fff}.fg{fill:#1f2328}.muted{fill:#59636e}.grid{stroke:#d1d9e0}.label{fill:#fff}
            .success{fill:#1a7f37}.failure{fill:#cf222e}.cancelled{fill:#9a6700}.skipped{fill:#6e7781}
            .abandoned{fill:#8250df}.agg{fill:#818b98;fill-opacity:.55}.cp{stroke:#0969da;stroke-width:2}
            @media (prefers-color-scheme:dark){.bg{fill:#0d1117}.fg{fill:#e6edf3}.muted{fill:#9198a1}\
            .grid{stroke:#3d444d}.success{fill:#238636}.failure{fill:#da3633}.cancelled{fill:#9e6a03}\
            .skipped{fill:#59636e}.abandoned{fill:#8957e5}.agg{fill:#656c76}.cp{stroke:#4493f8}}
            </style>
            <rect class="bg" width="100%" height="100%"/>
            <text class="fg" x="4" y="16" font-size="14" font-weight="600">\(MarkupText.escaped(heading)) · \
            \(TimelineFormat.duration(duration))</text>
            <text class="muted" x="\(width - 4)" y="16" text-anchor="end">\(legend)</text>

            """
        let step = TimeAxis.step(for: duration, pixels: Double(width))
        for tick in TimeAxis.ticks(for: duration, pixels: Double(width)) {
            let position = x(skeleton.start + tick)
            let at = number(position)
            // A label near the right edge goes left of its tick, or the image would cut it.
            let label =
                position > Double(width) - 80
                ? "x=\"\(number(position - 3))\" text-anchor=\"end\"" : "x=\"\(number(position + 3))\""
            svg +=
                "<line class=\"grid\" x1=\"\(at)\" x2=\"\(at)\" y1=\"24\" y2=\"\(height)\"/>"
                + "<text class=\"muted\" \(label) y=\"40\">"
                + "\(TimeAxis.label(tick, step: step))</text>\n"
        }
        for index in bars.shown {
            let activity = lookup(index)
            let left = x(activity.start)
            let barWidth = max(1, x(activity.end) - left)
            let y = Self.top + layout.rows[index] * Self.rowHeight
            let status = activity.outcome
            let text =
                (status == .success ? "" : status.symbol + " ") + activity.title + " · "
                + TimelineFormat.duration(activity.duration)
            svg +=
                "<g><title>\(MarkupText.escaped(tooltip(activity)))</title>"
                + "<rect class=\"\(status.rawValue)\(path.contains(index) ? " cp" : "")\" x=\"\(number(left))\" "
                + "y=\"\(y)\" width=\"\(number(barWidth))\" height=\"\(Self.rowHeight - 4)\" rx=\"3\"/>"
            if let label = Self.fit(text, in: barWidth - 8) {
                svg +=
                    "<text class=\"label\" x=\"\(number(left + 4))\" y=\"\(y + 12)\">\(MarkupText.escaped(label))</text>"
            }
            svg += "</g>\n"
        }
        for aggregate in bars.aggregates {
            let left = x(aggregate.start)
            svg +=
                "<rect class=\"agg\" x=\"\(number(left))\" y=\"\(Self.top + aggregate.row * Self.rowHeight)\" "
                + "width=\"\(number(max(1, x(aggregate.end) - left)))\" height=\"\(Self.rowHeight - 4)\" rx=\"3\">"
                + "<title>\(aggregate.members.count) short activities</title></rect>\n"
        }
        return svg + "</svg>\n"
    }

    private var legend: String {
        ActivityEvent.Status.allCases.map(\.label).joined(separator: "  ") + "  ▭ critical path"
    }

    private func tooltip(_ activity: TimelineActivity) -> String {
        var lines = [
            activity.title, "\(activity.outcome.label), \(TimelineFormat.duration(activity.duration))",
        ]
        if let error = activity.error { lines.append("error: " + error) }
        if let message = activity.message { lines.append(message) }
        return lines.joined(separator: " — ")
    }

    /// `text`, cut with `…` to fit `width` pixels at about 6.5 pixels a character, or `nil`
    /// when not even a few characters fit.
    static func fit(_ text: String, in width: Double) -> String? {
        let characters = Int(saturating: width / 6.5)
        guard characters >= 4 else { return nil }
        if text.count <= characters { return text }
        return String(text.prefix(characters - 1)) + "…"
    }
}
