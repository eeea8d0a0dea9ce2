public import ActivityWire

/// A whole recording as activities on a time axis: what ran, nested in what, for how long, and
/// how it ended.
///
/// Build one with ``TimelineBuilder``, or read a recording with ``read(_:diagnostics:)``; then
/// draw it (``HTMLReportWriter``, ``SVGTimelineWriter``) or export it (``ChromeTraceWriter``,
/// ``OTLPTraceWriter``).
///
/// ```swift
/// var problems: [Diagnostic] = []
/// let timeline = try Timeline.read(FileDescriptorSource(fileDescriptor: fd)) { problems.append($0) }
/// let html = HTMLReportWriter().write(timeline)
/// ```
public struct Timeline: Sendable {
    /// Every activity, in the order it began; `parent` and `children` are indices into it.
    public var activities: [TimelineActivity]
    /// Log lines that belong to no activity.
    public var looseLogs: [TimelineLog]
    /// The indices of the top-level activities, in the order they began.
    public let roots: [Int]
    /// Unix time in seconds of the first begin and of the last end (both 0 when empty).
    public let start: Double
    public let end: Double

    public init(activities: [TimelineActivity], looseLogs: [TimelineLog] = []) {
        self.activities = activities
        self.looseLogs = looseLogs
        roots = activities.indices.filter { activities[$0].parent == nil }
        let times = activities.flatMap { [$0.start, $0.end] } + looseLogs.map(\.time)
        start = times.min() ?? 0
        end = times.max() ?? 0
    }

    /// Seconds from the first begin to the last end.
    public var duration: Double { end - start }

    /// How many activities ended with `status`.
    public func count(_ status: ActivityEvent.Status) -> Int {
        activities.reduce(0) { $0 + ($1.outcome == status ? 1 : 0) }
    }

    /// The titles from the top-level activity down to `index`, for telling apart activities
    /// with the same title.
    public func path(of index: Int) -> [String] {
        var titles: [String] = []
        var current: Int? = index
        while let at = current {
            titles.append(activities[at].title)
            current = activities[at].parent
        }
        return titles.reversed()
    }

    /// Reads a recording: every line that is an event is folded in; every other line is handed
    /// to `diagnostics` with its line number (blank lines are skipped quietly). Activities still
    /// open at the end are abandoned at the latest time seen.
    ///
    /// - Throws: what reading `source` throws (``ReadError``).
    public static func read(
        _ source: some ByteSource, diagnostics: (Diagnostic) -> Void = { _ in }
    ) throws -> (timeline: Timeline, events: Int) {
        var reader = EventStreamReader(source: source)
        var builder = TimelineBuilder()
        try reader.forEach { item in
            guard item.isLineStart else { return }
            switch item.decoded {
            case .event(let event): builder.apply(event, fallbackTime: builder.latestTime ?? 0)
            case .blank, .ignored(nil): break
            case .text(let problem), .invalid(let problem), .ignored(let problem?): diagnostics(problem)
            }
        }
        builder.finish()
        return (builder.timeline(), builder.eventCount)
    }
}
