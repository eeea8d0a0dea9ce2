/// Where a drawing of a recording puts its activities, decided from the recording's shape alone:
/// their rows, the critical path, and which get bars of their own (the rest are aggregated).
///
/// ``HTMLReportWriter`` and ``SVGTimelineWriter`` draw from one; ``needed`` names the activities
/// whose text a drawing shows, the only ones a drawing of a large recording needs whole.
public struct TimelineDrawing: Sendable {
    public let skeleton: TimelineSkeleton
    package let layout: TimelineLayout
    public let criticalPath: CriticalPath
    package let bars: TimelineBars

    /// - Parameter budget: how many activities get bars of their own (``TimelineBars``).
    public init(_ skeleton: TimelineSkeleton, budget: Int) {
        self.skeleton = skeleton
        layout = TimelineLayout(skeleton)
        criticalPath = CriticalPath(skeleton)
        bars = TimelineBars(skeleton, layout: layout, criticalPath: criticalPath, budget: budget)
    }

    /// The activities whose text the drawing shows, ascending: every bar, and the first top-level
    /// activity (its title is the heading).
    public var needed: [Int] {
        guard let first = skeleton.roots.first, !bars.shown.contains(first) else { return bars.shown }
        return ([first] + bars.shown).sorted()
    }
}
