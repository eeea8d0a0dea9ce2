import ActivityWire

/// A recording in the Trace Event Format (the JSON that `chrome://tracing` and Perfetto load).
///
/// Times are microseconds from the first event (`otherData.recordingStart` holds when that
/// was). An activity that nests cleanly (inside its parent, after its previous sibling) is a
/// complete event (`X`) on the one thread, so the viewer stacks it under its parent; one that
/// overlaps a sibling (parallel work) cannot share the thread's stack, so it becomes an async
/// slice (`b`/`e`, category `activity`, its activity id as the id), as do its descendants.
/// Nothing is dropped either way. Log lines are instant events (`i`); progress is a counter
/// (`C`) for the ``maxCounterTracks`` activities with the most progress samples. Every slice
/// carries the activity's id, status, message, error, counts and attrs in `args`.
///
/// ```swift
/// let json = ChromeTraceWriter().write(timeline)   // open in https://ui.perfetto.dev
/// ```
public struct ChromeTraceWriter: Sendable {
    /// Counters are tracks: past a hundred they bury the slices.
    public var maxCounterTracks = 100

    public init() {}

    /// The whole trace, a JSON object ending in a newline.
    public func write(_ timeline: Timeline) -> String {
        let activities = timeline.activities
        let origin = timeline.start
        func microseconds(_ time: Double) -> Int64 {
            Int64(saturating: (time - origin) * 1_000_000, rounding: .toNearestOrAwayFromZero)
        }
        func micros(_ time: Double) -> String { String(microseconds(time)) }
        let sync = synchronousActivities(timeline)
        var events: [String] = [
            "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"process_name\",\"args\":{\"name\":"
                + MarkupText.json("activity: " + (timeline.roots.first.map { activities[$0].title } ?? "recording"))
                + "}}",
            "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"activities\"}}",
        ]
        for (index, activity) in activities.enumerated() {
            let common = "\"pid\":1,\"tid\":1,\"cat\":\"activity\",\"name\":\(MarkupText.json(activity.title))"
            if sync[index] {
                let (difference, overflow) = microseconds(activity.end).subtractingReportingOverflow(
                    microseconds(activity.start))
                let duration = String(overflow ? Int64.max : difference)
                events.append(
                    "{\"ph\":\"X\",\(common),\"ts\":\(micros(activity.start)),\"dur\":\(duration),\"args\":\(args(activity))}"
                )
            } else {
                let id = MarkupText.json(activity.id.rawValue)
                events.append(
                    "{\"ph\":\"b\",\(common),\"id\":\(id),\"ts\":\(micros(activity.start)),\"args\":\(args(activity))}")
                events.append("{\"ph\":\"e\",\(common),\"id\":\(id),\"ts\":\(micros(activity.end)),\"args\":{}}")
            }
            for log in activity.logs {
                events.append(instant(log, activity: activity.id.rawValue, scope: sync[index] ? "t" : "p", micros))
            }
        }
        for log in timeline.looseLogs { events.append(instant(log, activity: nil, scope: "p", micros)) }
        let counted = activities.indices.filter { activities[$0].samples.count >= 2 }
            .sorted { (activities[$1].samples.count, $0) < (activities[$0].samples.count, $1) }
            .prefix(maxCounterTracks).sorted()
        for index in counted {
            let activity = activities[index]
            let name = MarkupText.json(activity.title + " progress")
            for sample in activity.samples {
                events.append(
                    "{\"ph\":\"C\",\"pid\":1,\"tid\":1,\"name\":\(name),\"id\":\(MarkupText.json(activity.id.rawValue)),"
                        + "\"ts\":\(micros(sample.time)),\"args\":{\"completed\":\(TimelineFormat.json(sample.completed))}}"
                )
            }
        }
        return "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"swift-activity\",\"recordingStart\":\""
            + TimelineFormat.rfc3339(origin) + "\"},\"traceEvents\":[\n" + events.joined(separator: ",\n") + "\n]}\n"
    }

    /// Which activities can be complete events on the one thread: those inside a synchronous
    /// parent (or at the top) that start after the previous such sibling ended.
    func synchronousActivities(_ timeline: Timeline) -> [Bool] {
        let activities = timeline.activities
        var sync = [Bool](repeating: false, count: activities.count)
        func place(_ siblings: [Int], within bounds: (Double, Double)?) {
            var lastEnd = -Double.infinity
            for index in siblings.sorted(by: { (activities[$0].start, $0) < (activities[$1].start, $1) }) {
                let activity = activities[index]
                let inside = bounds.map { activity.start >= $0.0 && activity.end <= $0.1 } ?? true
                guard inside, activity.start >= lastEnd else { continue }
                sync[index] = true
                lastEnd = activity.end
            }
        }
        place(timeline.roots, within: nil)
        // Begin order puts every parent before its children.
        for index in activities.indices where sync[index] && !activities[index].children.isEmpty {
            place(activities[index].children, within: (activities[index].start, activities[index].end))
        }
        return sync
    }

    private func instant(
        _ log: TimelineLog, activity: String?, scope: String, _ micros: (Double) -> String
    ) -> String {
        let name = log.message.count > 120 ? String(log.message.prefix(119)) + "…" : log.message
        var args = "\"level\":\"\(log.level.rawValue)\",\"message\":\(MarkupText.json(log.message))"
        if let activity { args += ",\"activity\":\(MarkupText.json(activity))" }
        return "{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"s\":\"\(scope)\",\"name\":\(MarkupText.json(name)),"
            + "\"ts\":\(micros(log.time)),\"args\":{\(args)}}"
    }

    private func args(_ activity: TimelineActivity) -> String {
        var fields = [
            "\"id\":\(MarkupText.json(activity.id.rawValue))", "\"status\":\"\(activity.outcome.rawValue)\"",
        ]
        if let parent = activity.parentID { fields.append("\"parent\":\(MarkupText.json(parent.rawValue))") }
        if let message = activity.message { fields.append("\"message\":\(MarkupText.json(message))") }
        if let error = activity.error { fields.append("\"error\":\(MarkupText.json(error))") }
        if activity.completed != 0 || activity.total != nil {
            fields.append("\"completed\":\(TimelineFormat.json(activity.completed))")
        }
        if let total = activity.total { fields.append("\"total\":\(TimelineFormat.json(total))") }
        if let unit = activity.unit { fields.append("\"unit\":\(MarkupText.json(unit))") }
        for key in activity.attrs.keys.sorted() {
            let value: String
            switch activity.attrs[key]! {
            case .string(let text): value = MarkupText.json(text)
            case .number(let number): value = TimelineFormat.json(number)
            case .bool(let flag): value = flag ? "true" : "false"
            }
            fields.append("\(MarkupText.json("attr." + key)):\(value)")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }
}
