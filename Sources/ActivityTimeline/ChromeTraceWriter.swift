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
        let plan = ChromeTracePlan(timeline)
        let origin = plan.origin
        let sync = plan.synchronous()
        var events = metadata(processName: plan.processName)
        for (index, activity) in timeline.activities.enumerated() {
            events += self.events(for: activity, synchronous: sync[index], origin: origin)
        }
        for log in timeline.looseLogs { events.append(looseLog(log, origin: origin)) }
        for index in plan.counterTracks(limit: maxCounterTracks) {
            events += counterEvents(for: timeline.activities[index], origin: origin)
        }
        return opening(origin: origin) + events.joined(separator: ",\n") + closing
    }

    /// What comes before the first event.
    package func opening(origin: Double) -> String {
        "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"swift-activity\",\"recordingStart\":\""
            + TimelineFormat.rfc3339(origin) + "\"},\"traceEvents\":[\n"
    }

    /// What comes after the last event.
    package var closing: String { "\n]}\n" }

    /// The two metadata events, the first ones of the trace.
    package func metadata(processName: String?) -> [String] {
        [
            "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"process_name\",\"args\":{\"name\":"
                + MarkupText.json("activity: " + (processName ?? "recording")) + "}}",
            "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"activities\"}}",
        ]
    }

    /// The activity's slice (complete when `synchronous`, else async) and its log lines.
    package func events(for activity: TimelineActivity, synchronous: Bool, origin: Double) -> [String] {
        let common = "\"pid\":1,\"tid\":1,\"cat\":\"activity\",\"name\":\(MarkupText.json(activity.title))"
        let start = Self.micros(activity.start, origin: origin)
        var events: [String] = []
        if synchronous {
            let (difference, overflow) = Self.microseconds(activity.end, origin: origin).subtractingReportingOverflow(
                Self.microseconds(activity.start, origin: origin))
            let duration = String(overflow ? Int64.max : difference)
            events.append("{\"ph\":\"X\",\(common),\"ts\":\(start),\"dur\":\(duration),\"args\":\(args(activity))}")
        } else {
            let id = MarkupText.json(activity.id.rawValue)
            let end = Self.micros(activity.end, origin: origin)
            events.append("{\"ph\":\"b\",\(common),\"id\":\(id),\"ts\":\(start),\"args\":\(args(activity))}")
            events.append("{\"ph\":\"e\",\(common),\"id\":\(id),\"ts\":\(end),\"args\":{}}")
        }
        for log in activity.logs {
            events.append(instant(log, activity: activity.id.rawValue, scope: synchronous ? "t" : "p", origin: origin))
        }
        return events
    }

    /// A log line that belongs to no activity.
    package func looseLog(_ log: TimelineLog, origin: Double) -> String {
        instant(log, activity: nil, scope: "p", origin: origin)
    }

    /// The activity's progress as a counter track.
    package func counterEvents(for activity: TimelineActivity, origin: Double) -> [String] {
        let name = MarkupText.json(activity.title + " progress")
        return activity.samples.map { sample in
            "{\"ph\":\"C\",\"pid\":1,\"tid\":1,\"name\":\(name),\"id\":\(MarkupText.json(activity.id.rawValue)),"
                + "\"ts\":\(Self.micros(sample.time, origin: origin)),"
                + "\"args\":{\"completed\":\(TimelineFormat.json(sample.completed))}}"
        }
    }

    private static func microseconds(_ time: Double, origin: Double) -> Int64 {
        Int64(saturating: (time - origin) * 1_000_000, rounding: .toNearestOrAwayFromZero)
    }

    private static func micros(_ time: Double, origin: Double) -> String { String(microseconds(time, origin: origin)) }

    private func instant(_ log: TimelineLog, activity: String?, scope: String, origin: Double) -> String {
        let name = log.message.count > 120 ? String(log.message.prefix(119)) + "…" : log.message
        var args = "\"level\":\"\(log.level.rawValue)\",\"message\":\(MarkupText.json(log.message))"
        if let activity { args += ",\"activity\":\(MarkupText.json(activity))" }
        return "{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"s\":\"\(scope)\",\"name\":\(MarkupText.json(name)),"
            + "\"ts\":\(Self.micros(log.time, origin: origin)),\"args\":{\(args)}}"
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
