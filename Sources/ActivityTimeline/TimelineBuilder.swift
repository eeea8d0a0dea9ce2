public import ActivityWire

/// Folds an event stream into activities with their times, nesting, outcome and logs.
///
/// The builder applies the consumer rules of the protocol: a child whose parent is not open is
/// attached at the top; an activity whose parent ends while it is open is ended `abandoned` at
/// the parent's end; ``finish(at:)`` abandons whatever is still open at the end of the stream.
/// Events that break the rules (a second `begin`, an event for an id never begun or already
/// ended) change nothing: reporting them is the reader's job (``StreamValidator``).
///
/// Times are the events' `ts`; an event without one happened at the `fallbackTime` the caller
/// gives (the arrival time for a live stream, the latest time seen for a file).
///
/// ```swift
/// var builder = TimelineBuilder()
/// for event in events { builder.apply(event, fallbackTime: builder.latestTime ?? 0) }
/// builder.finish()
/// let timeline = builder.timeline()
/// ```
///
/// A live exporter that only needs each activity as it ends creates the builder with
/// `keepsEnded: false` and calls ``release(_:)`` once it has used an ended activity, so memory
/// stays bounded by the activities open at once.
public struct TimelineBuilder: Sendable {
    /// How many log lines an activity keeps; later ones are only counted.
    public static let maxLogsPerActivity = 1000
    /// How many progress samples an activity keeps; past it, every other sample is dropped.
    public static let maxSamplesPerActivity = 512

    private var slots: [TimelineActivity] = []
    private var freeSlots: [Int] = []
    private var open: [ActivityID: Int] = [:]
    private var openChildren: [Int: Int] = [:]
    private var ended: Set<ActivityID> = []
    private let keepsEnded: Bool
    private let remembersEndedIDs: Bool
    private var begunCount = 0
    /// Log lines that belong to no open activity.
    public private(set) var looseLogs: [TimelineLog] = []
    /// The earliest and latest event times seen.
    public private(set) var earliestTime: Double?
    public private(set) var latestTime: Double?
    /// How many events were applied.
    public private(set) var eventCount = 0

    /// - Parameters:
    ///   - keepsEnded: `false` to forget ended activities once ``release(_:)`` is called
    ///     (and not to collect children lists), for a stream of unbounded length.
    ///   - remembersEndedIDs: whether a `begin` of an id that already ended is refused, as the
    ///     protocol says; it costs an id per activity. By default only when `keepsEnded`: an
    ///     exporter of a finite recording passes `true` to fold exactly as a whole timeline does.
    public init(keepsEnded: Bool = true, remembersEndedIDs: Bool? = nil) {
        self.keepsEnded = keepsEnded
        self.remembersEndedIDs = remembersEndedIDs ?? keepsEnded
    }

    /// The activity in slot `index`.
    public subscript(index: Int) -> TimelineActivity { slots[index] }

    /// Applies one event.
    ///
    /// - Returns: the slots of the activities that ended because of it, children before their
    ///   parent (an `end` with children open abandons them first).
    @discardableResult
    public mutating func apply(_ event: ActivityEvent, fallbackTime: Double) -> [Int] {
        let time = event.timestamp ?? fallbackTime
        eventCount += 1
        earliestTime = min(earliestTime ?? time, time)
        latestTime = max(latestTime ?? time, time)
        switch event {
        case .begin(let begin): self.begin(begin, at: time)
        case .progress(let progress): self.progress(progress, at: time)
        case .log(let log): self.log(log, at: time)
        case .end(let end):
            let index = open[end.id]
            guard ConsumerRules.event(.end, for: end.id, standing: standing(of: end.id, at: index)) == nil, let index
            else { return [] }
            var finished: [Int] = []
            close(index, at: time, finished: &finished) { activity in
                activity.status = end.status
                activity.message = end.message ?? activity.message
                activity.error = end.error
                if let completed = end.completed { activity.completed = completed }
                if let total = end.total { activity.total = total.value }
            }
            return finished
        }
        return []
    }

    /// Ends every open activity `abandoned`, at `time` (by default the latest time seen).
    ///
    /// - Returns: the slots of the activities it ended, children before their parent.
    @discardableResult
    public mutating func finish(at time: Double? = nil) -> [Int] {
        let time = time ?? latestTime ?? 0
        var finished: [Int] = []
        // Outermost first: closing a parent abandons its open children with it.
        let outermostFirst = open.values.sorted { (slots[$0].depth, $0) < (slots[$1].depth, $1) }
        let childrenOf = openChildrenByParent()
        for index in outermostFirst where isOpen(index) {
            close(index, at: time, finished: &finished, childrenOf: childrenOf) { $0.status = .abandoned }
        }
        return finished
    }

    /// Forgets an ended activity (only with `keepsEnded: false`); its slot is reused.
    public mutating func release(_ index: Int) {
        guard !keepsEnded, slots[index].status != nil else { return }
        slots[index].logs = []
        slots[index].samples = []
        slots[index].attrs = [:]
        freeSlots.append(index)
    }

    /// The activities folded so far, in the order they began. Call ``finish(at:)`` first so
    /// that every activity has ended.
    public func timeline() -> Timeline {
        Timeline(activities: slots, looseLogs: looseLogs)
    }

    private func isOpen(_ index: Int) -> Bool { open[slots[index].id] == index }

    /// What the builder knows of `id`, whose open slot, if any, the caller has looked up.
    private func standing(of id: ActivityID, at openIndex: Int?) -> ConsumerRules.Standing {
        if openIndex != nil { return .open }
        if ended.contains(id) { return .ended }
        return remembersEndedIDs ? .neverBegun : .notOpen
    }

    private mutating func begin(_ begin: ActivityEvent.Begin, at time: Double) {
        guard ConsumerRules.begin(begin.id, standing: standing(of: begin.id, at: open[begin.id])) == nil else { return }
        // A parent that is not open: the activity is attached at the top.
        let parent = begin.parent.flatMap { parentID -> Int? in
            let index = open[parentID]
            return ConsumerRules.parent(parentID, standing: standing(of: parentID, at: index)) == nil ? index : nil
        }
        let parentActivity = parent.map { slots[$0] }
        var activity = TimelineActivity(
            id: begin.id, title: begin.title, parentID: parent == nil ? nil : begin.parent, parent: parent,
            depth: parentActivity.map { $0.depth + 1 } ?? 0, rootID: parentActivity?.rootID ?? begin.id,
            start: time, completed: begin.completed, total: begin.total, unit: begin.unit, message: begin.message,
            attrs: begin.attrs)
        activity.sequence = begunCount
        begunCount += 1
        if begin.total != nil || begin.completed > 0 {
            activity.samples.append(ProgressSample(time: time, completed: begin.completed, total: begin.total))
        }
        let index: Int
        if let reused = freeSlots.popLast() {
            index = reused
            slots[index] = activity
        } else {
            index = slots.count
            slots.append(activity)
        }
        open[begin.id] = index
        if let parent {
            openChildren[parent, default: 0] += 1
            if keepsEnded { slots[parent].children.append(index) }
        }
    }

    private mutating func progress(_ progress: ActivityEvent.Progress, at time: Double) {
        let index = open[progress.id]
        guard ConsumerRules.event(.progress, for: progress.id, standing: standing(of: progress.id, at: index)) == nil,
            let index
        else { return }
        let before = (slots[index].completed, slots[index].total)
        if let completed = progress.completed { slots[index].completed = completed }
        if let total = progress.total { slots[index].total = total.value }
        if let title = progress.title { slots[index].title = title }
        if let message = progress.message { slots[index].message = message.isEmpty ? nil : message }
        if before != (slots[index].completed, slots[index].total) { sample(index, at: time) }
    }

    private mutating func log(_ log: ActivityEvent.Log, at time: Double) {
        let line = TimelineLog(time: time, level: log.level, message: log.message)
        let index = log.id.flatMap { open[$0] }
        guard let id = log.id, ConsumerRules.event(.log, for: id, standing: standing(of: id, at: index)) == nil,
            let index
        else {
            looseLogs.append(line)
            return
        }
        slots[index].logCount += 1
        if slots[index].logs.count < Self.maxLogsPerActivity { slots[index].logs.append(line) }
    }

    private mutating func sample(_ index: Int, at time: Double) {
        let activity = slots[index]
        slots[index].samples.append(ProgressSample(time: time, completed: activity.completed, total: activity.total))
        if slots[index].samples.count > Self.maxSamplesPerActivity {
            // Thin evenly, keeping the first and the newest sample.
            let samples = slots[index].samples
            slots[index].samples = samples.enumerated().filter { $0.offset % 2 == 0 || $0.offset == samples.count - 1 }
                .map(\.element)
        }
    }

    /// Ends `index` after abandoning its open descendants, each before its parent, siblings in
    /// the order they began. Without recursion: a chain of nested activities is as deep as the
    /// stream is long.
    /// `childrenOf` is ``openChildrenByParent()``, when the caller closes several activities.
    private mutating func close(
        _ index: Int, at time: Double, finished: inout [Int], childrenOf: [Int: [Int]]? = nil,
        _ update: (inout TimelineActivity) -> Void
    ) {
        if openChildren[index, default: 0] > 0 {
            let childrenOf = childrenOf ?? openChildrenByParent()
            var stack: [(index: Int, childrenDone: Bool)] = (childrenOf[index] ?? []).sorted(by: >).map { ($0, false) }
            while let (next, childrenDone) = stack.popLast() {
                if childrenDone {
                    end(next, at: time, finished: &finished) { $0.status = .abandoned }
                } else {
                    stack.append((next, true))
                    stack.append(contentsOf: (childrenOf[next] ?? []).sorted(by: >).map { ($0, false) })
                }
            }
        }
        end(index, at: time, finished: &finished, update)
    }

    private func openChildrenByParent() -> [Int: [Int]] {
        var childrenOf: [Int: [Int]] = [:]
        for index in open.values {
            if let parent = slots[index].parent { childrenOf[parent, default: []].append(index) }
        }
        return childrenOf
    }

    /// Ends `index` alone: its open children, if any, are already ended.
    private mutating func end(
        _ index: Int, at time: Double, finished: inout [Int], _ update: (inout TimelineActivity) -> Void
    ) {
        update(&slots[index])
        slots[index].end = max(time, slots[index].start)
        if slots[index].samples.last.map({ $0.completed != slots[index].completed }) ?? false {
            sample(index, at: slots[index].end)
        }
        let id = slots[index].id
        open[id] = nil
        openChildren[index] = nil
        if remembersEndedIDs { ended.insert(id) }
        if let parent = slots[index].parent { openChildren[parent, default: 1] -= 1 }
        finished.append(index)
    }
}
