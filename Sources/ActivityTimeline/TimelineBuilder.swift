@_spi(Consumers) public import ActivityWire

/// Folds an event stream into activities with their times, nesting, outcome and logs.
///
/// The builder applies the consumer rules of the protocol, through the fold of them that every
/// consumer runs (the store and the validator too): a child whose parent is not open is
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
    /// The rules, applied: which activities are open, nested where, and what an end abandons.
    private var fold: ConsumerFold
    /// The builder's slot of the activity in each slot of the fold, -1 for none.
    private var slotOfFold: [Int] = []
    private let keepsEnded: Bool
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
        fold = ConsumerFold(retainedEnded: remembersEndedIDs ?? keepsEnded ? nil : 0)
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
        let step = fold.apply(event)
        switch (step.outcome, event) {
        case (.begun(let slot, let parent), .begin(let begin)):
            self.begin(begin, slot: slot, parent: parent.map { slotOfFold[$0] }, at: time)
        case (.applied(let slot), .progress(let progress)):
            self.progress(progress, at: slotOfFold[slot], time: time)
        case (.applied(let slot), .log(let log)):
            self.log(log, at: slotOfFold[slot], time: time)
        case (.refused, .log(let log)):
            looseLogs.append(TimelineLog(time: time, level: log.level, message: log.message))
        case (.ended(let slot, let abandoned), .end(let end)):
            var finished = abandoned.map { slotOfFold[$0] }
            for index in finished { self.end(index, at: time) { $0.status = .abandoned } }
            let index = slotOfFold[slot]
            self.end(index, at: time) { activity in
                activity.status = end.status
                activity.message = end.message ?? activity.message
                activity.error = end.error
                if let completed = end.completed { activity.completed = completed }
                if let total = end.total { activity.total = total.value }
            }
            finished.append(index)
            return finished
        default:
            break
        }
        return []
    }

    /// Ends every open activity `abandoned`, at `time` (by default the latest time seen).
    ///
    /// - Returns: the slots of the activities it ended, children before their parent.
    @discardableResult
    public mutating func finish(at time: Double? = nil) -> [Int] {
        let time = time ?? latestTime ?? 0
        let finished = fold.finish().map { slotOfFold[$0] }
        for index in finished { end(index, at: time) { $0.status = .abandoned } }
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

    /// Makes the activity of a `begin` the fold opened in `foldSlot`, under the builder's
    /// `parent` (`nil`: at the top).
    private mutating func begin(_ begin: ActivityEvent.Begin, slot foldSlot: Int, parent: Int?, at time: Double) {
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
        if foldSlot >= slotOfFold.count { slotOfFold += Array(repeating: -1, count: foldSlot + 1 - slotOfFold.count) }
        slotOfFold[foldSlot] = index
        if let parent, keepsEnded { slots[parent].children.append(index) }
    }

    private mutating func progress(_ progress: ActivityEvent.Progress, at index: Int, time: Double) {
        let before = (slots[index].completed, slots[index].total)
        if let completed = progress.completed { slots[index].completed = completed }
        if let total = progress.total { slots[index].total = total.value }
        if let title = progress.title { slots[index].title = title }
        if let message = progress.message { slots[index].message = message.isEmpty ? nil : message }
        if before != (slots[index].completed, slots[index].total) { sample(index, at: time) }
    }

    private mutating func log(_ log: ActivityEvent.Log, at index: Int, time: Double) {
        let line = TimelineLog(time: time, level: log.level, message: log.message)
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

    /// Ends the activity in `index`, which the fold has ended.
    private mutating func end(_ index: Int, at time: Double, _ update: (inout TimelineActivity) -> Void) {
        update(&slots[index])
        slots[index].end = max(time, slots[index].start)
        if slots[index].samples.last.map({ $0.completed != slots[index].completed }) ?? false {
            sample(index, at: slots[index].end)
        }
    }
}
