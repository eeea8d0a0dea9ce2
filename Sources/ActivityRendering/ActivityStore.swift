import ActivityTerminal
@_spi(Consumers) public import ActivityWire

/// Folds an event stream into a tree of activities, applying every consumer rule of the protocol.
///
/// The store is a value: apply events in stream order and read the tree. The consumer rules'
/// one fold (the one the timeline, the validator and the overlay model run too) decides what
/// each event does and interns each id once, when its `begin` arrives, into a slot, recycled
/// once the id is forgotten; an ``ActivityHandle`` names the slot and how many activities it
/// held before, and the store keeps each slot's activity. Every event that changes something comes back as an
/// ``ActivityUpdate`` that names the activity by its handle and carries what the event set;
/// renderers read the activity from the store (`store[handle]`).
///
/// Consumer rules: `progress` and `end` for an id never begun, or already ended, are ignored and
/// counted (a `log` is still shown, without its id); a second `begin` is ignored; a `begin` naming
/// a parent that is not open is attached at the top; children still open when their parent ends
/// end first, as `abandoned`; ``finish(at:_:)`` ends everything still open as `abandoned`.
/// Diagnostics are counted in ``summary``, never fatal.
///
/// Text from the wire is sanitized once, here, where it enters the activities: the title,
/// message, unit, error and attribute keys and string values of every ``ActivityState`` are safe
/// to show (``TextSanitizer/display(_:)``), so no renderer can forget one. The events of the
/// updates (``ActivityUpdate/event(in:)``) stay as the producer sent them, for recordings and
/// plugins.
///
/// Memory is bounded by the activities open at once: a finished activity is kept for late events
/// and then evicted, oldest first, once more than ``Limits/retainedFinished`` have finished; its
/// outcome lives on in ``summary``. At most ``Limits/maxOpen`` activities are open at once; a
/// `begin` past that is dropped and counted.
///
/// ```swift
/// var store = ActivityStore()
/// for update in store.apply(.begin(.init(id: ActivityID("a")!, title: "Build", timestamp: 0))) {
///     print(update.kind, update.handle.flatMap { store[$0]?.title } ?? "")
/// }
/// ```
///
/// The store is not synchronized; ``RenderSession`` serializes access to it.
public struct ActivityStore: Sendable {
    /// The store's memory bounds.
    public struct Limits: Sendable, Hashable {
        /// Activities open at once; further `begin`s are dropped and counted.
        public var maxOpen: Int
        /// Finished activities kept (for late events and for renderers); older ones are evicted.
        public var retainedFinished: Int

        public init(maxOpen: Int = 10_000, retainedFinished: Int = 1_000) {
            self.maxOpen = max(1, maxOpen)
            self.retainedFinished = max(0, retainedFinished)
        }
    }

    public let limits: Limits
    /// Totals over the whole stream.
    public internal(set) var summary = ActivitySummary()
    /// The open top-level activities, in the order they began.
    public var roots: [ActivityHandle] { fold.roots.map(handle(at:)) }
    /// How many activities are open.
    public var openCount: Int { fold.openCount }
    /// How far the stream's clock is from the wall clock: 0, unless the events' timestamps are
    /// more than a second away from their arrival (a recording rendered later, a producer whose
    /// clock is off). ``RenderSession`` keeps it; see ``streamTime(_:)``.
    public internal(set) var clockOffset = 0.0

    /// The wall-clock time `now` on the stream's clock, never before its latest event: the time
    /// to give what is not an event (a passed-through line, the end of the stream), so that
    /// times never go backwards, in a recording from the past too.
    public func streamTime(_ now: Double) -> Double {
        max(now + clockOffset, summary.lastTime ?? -.infinity)
    }

    /// The consumer rules, applied: the ids (interned into slots, which handles name with the
    /// slot's generation), which are open, their parents and open children, and which ended
    /// ids are still known. An evicted activity stays readable through its handle until the
    /// next call, then its slot is free.
    var fold: ConsumerFold
    /// The activities by the fold's slot; `nil` for a free slot.
    var slots: [ActivityState?] = []
    var sequence = 0
    /// The latest message a progress line brought: the next that repeats it makes no new strings.
    var repeatedMessage = RepeatedText()

    public init(limits: Limits = Limits()) {
        self.limits = limits
        fold = ConsumerFold(retainedEnded: limits.retainedFinished, maxOpen: limits.maxOpen)
    }

    /// The activity `handle` names, open or recently finished; `nil` once it has been evicted.
    public subscript(handle: ActivityHandle) -> ActivityState? {
        let index = handle.index
        guard index < slots.count, fold.generation(of: index) == handle.generation else { return nil }
        return slots[index]
    }

    /// The completed fraction of the activity `handle` names (``ActivityState/fraction``), read
    /// in place: deciding whether a progress event is worth a line copies no activity. `nil`
    /// once evicted, `.some(nil)` while indeterminate.
    package func fraction(of handle: ActivityHandle) -> Double?? {
        let index = handle.index
        guard index < slots.count, fold.generation(of: index) == handle.generation else { return nil }
        return slots[index]?.fraction
    }

    /// The activity with `id`, open or recently finished.
    public subscript(id: ActivityID) -> ActivityState? {
        handle(for: id).flatMap { self[$0] }
    }

    /// The handle of the activity with `id`, open or recently finished.
    public func handle(for id: ActivityID) -> ActivityHandle? {
        slot(of: id).map(handle(at:))
    }

    /// Whether `handle` names a frame (see ``ActivityState/isFrame``).
    public func isFrame(_ handle: ActivityHandle?) -> Bool {
        guard let handle, holds(handle) else { return false }
        return slots[handle.index]?.identity.isFrame ?? false
    }

    /// Whether `handle` names the activity in its slot (open, or finished and not yet evicted):
    /// `self[handle] != nil`, without copying the activity out. (The slot is read through a
    /// member: comparing the optional activity itself with `nil` copies it.)
    @inline(__always)
    func holds(_ handle: ActivityHandle) -> Bool {
        let index = handle.index
        return index < slots.count && fold.generation(of: index) == handle.generation && slots[index]?.completed != nil
    }

    /// Where ``requestCancel(_:)`` sends a cancel: set by whoever can reach the producers
    /// (`activity run` routes it to the reporter that began the activity). `nil`: nowhere.
    public var onCancelRequest: (@Sendable (ActivityID) -> Void)?

    /// Asks the producer of `id` to cancel it, for a renderer or plugin with a Cancel control.
    /// A request: the activity ends `cancelled` when (and if) its producer stops.
    ///
    /// - Returns: `false`, sending nothing, when `id` is not running, not cancellable, or nothing
    ///   can reach its producer. Repeats are sent on; the router sends one cancel per activity.
    @discardableResult
    public func requestCancel(_ id: ActivityID) -> Bool {
        guard let onCancelRequest, let state = self[id], state.isRunning, state.cancellable else { return false }
        onCancelRequest(id)
        return true
    }

    /// How many activities the store holds, open and finished (bounded by the limits).
    public var retainedCount: Int { fold.heldCount }

    /// The open activities in display order: depth first, each parent before its children.
    public func forEachOpen(_ body: (ActivityState) -> Bool) {
        var stack: [ActivityHandle] = []
        stack.reserveCapacity(min(roots.count, 256) + 16)
        // Roots are pushed lazily, so a frame of 20 lines over 10,000 roots stays cheap.
        var nextRoot = 0
        while true {
            let handle: ActivityHandle
            if let pending = stack.popLast() {
                handle = pending
            } else if nextRoot < roots.count {
                handle = roots[nextRoot]
                nextRoot += 1
            } else {
                return
            }
            guard let activity = self[handle] else { continue }
            if !body(activity) { return }
            stack.append(contentsOf: activity.children.reversed())
        }
    }

    /// The titles from the top-level activity down to `handle`.
    public func path(of handle: ActivityHandle) -> [String] {
        var titles: [String] = []
        var current: ActivityHandle? = handle
        while let next = current, let node = self[next], titles.count < 64 {
            titles.append(node.title)
            current = node.parent
        }
        return titles.reversed()
    }

    /// Counts a diagnostic found outside the store (a line the decoder rejected).
    public mutating func count(_ diagnostic: Diagnostic) {
        summary.diagnostics[diagnostic.code, default: 0] += 1
    }

    /// Applies one event and returns what changed (a convenience for tests and small tools; a
    /// session uses ``apply(_:line:_:)``, which hands each change over as it happens).
    public mutating func updates(applying event: ActivityEvent, line: Int = 0) -> [ActivityUpdate] {
        var updates: [ActivityUpdate] = []
        _ = apply(event, line: line) { updates.append($0) }
        return updates
    }

    /// Applies one event; `body` receives each change in order. Returns the diagnostics the event
    /// raised (already counted in ``summary``).
    @discardableResult
    public mutating func apply(
        _ event: consuming ActivityEvent, line: Int, _ body: (ActivityUpdate) -> Void
    ) -> [Diagnostic] {
        apply(event, line: line, sender: nil, owner: nil, body)
    }

    /// Applies one event that the reporter on connection `sender` sent, in a store fed by several
    /// (`activity run`): a `progress` or `end` changes only an activity that reporter may change
    /// (see ``ActivityOwner``), else the event is skipped with a `not-owner` diagnostic; a `begin`
    /// makes `owner` the activity's owner. With no `sender`, the event is the caller's own.
    @discardableResult
    package mutating func apply(
        _ event: consuming ActivityEvent, line: Int, sender: Int32?, owner: ActivityOwner?,
        _ body: (ActivityUpdate) -> Void
    ) -> [Diagnostic] {
        releaseEvicted()
        let time = stamp(event.timestamp)
        switch consume event {
        case .begin(var begin):
            begin.timestamp = time
            return applyBegin(begin, time: time, line: line, owner: owner, body)
        case .progress(let progress):
            let index = slot(of: progress.id)
            guard let index, fold.isOpen(index) else {
                return problem(unknown: progress.id, doing: .progress, at: index, line: line)
            }
            if let refusal = refusal(of: sender, at: index, doing: .progress, line: line) { return refusal }
            applyProgress(
                at: index, completed: progress.completed, total: progress.total,
                message: progress.message.map { RepeatedText.Message($0, shown: TerminalSanitizer.display($0)) },
                title: progress.title, time: time, body)
            return []
        case .log(var log):
            log.timestamp = time
            return applyLog(log, line: line, body)
        case .end(var end):
            end.timestamp = time
            return applyEnd(end, at: slot(of: end.id), sender: sender, time: time, line: line, body)
        }
    }

    /// Ends, as abandoned, the running activities `owner` began, the latest begun first: the
    /// reporter (or process) went away. Returns the diagnostics this raised.
    @discardableResult
    package mutating func abandon(
        ownedBy owner: ActivityOwner, at time: Double, _ body: (ActivityUpdate) -> Void
    ) -> [Diagnostic] {
        releaseEvicted()
        return abandon(ownedBy: owner, time: stamp(time), body)
    }

    /// Applies one event decoded in place: the id is looked up from the line's bytes, and only
    /// the texts the store keeps become strings.
    @discardableResult
    package mutating func apply(
        _ event: borrowing LineEvent, line: Int, _ body: (ActivityUpdate) -> Void
    ) -> [Diagnostic] {
        apply(event, line: line, sender: nil, body)
    }

    /// Applies one event decoded in place that the reporter on `sender` sent (see
    /// ``apply(_:line:sender:owner:_:)-(ActivityEvent,_,_,_,_)``; a `begin` here is that
    /// connection's). With no `sender`, the event is the caller's own.
    @discardableResult
    package mutating func apply(
        _ event: borrowing LineEvent, line: Int, sender: Int32?, _ body: (ActivityUpdate) -> Void
    ) -> [Diagnostic] {
        // A pattern, not `==`: the kind's `Equatable` from another module is a call.
        if case .end = event.kind, let id = event.id {
            return applyEnd(event, id: id, line: line, sender: sender, body)
        }
        if case .begin = event.kind, let id = event.id, case .some(let parentSlot) = usualBegin(event, id: id) {
            return applyBegin(event, id: id, parentSlot: parentSlot, line: line, sender: sender, body)
        }
        guard case .progress = event.kind, let id = event.id else {
            return apply(event.event(), line: line, sender: sender, owner: sender.map { .connection($0) }, body)
        }
        releaseEvicted()
        let time = stamp(event.timestamp)
        // The id straight from the line; a closure here would capture (and copy) the store.
        let index =
            id.escaped
            ? slot(of: event.activityID(id)) : slot(of: UnsafeBufferPointer(rebasing: event.bytes[id.range]))
        guard let index, fold.isOpen(index) else {
            return problem(unknown: event.activityID(id), doing: .progress, at: index, line: line)
        }
        if let refusal = refusal(of: sender, at: index, doing: .progress, line: line) { return refusal }
        var message: RepeatedText.Message?
        if let field = event.message { message = repeatedMessage.message(of: field, in: event) }
        applyProgress(
            at: index, completed: event.completed, total: event.total, message: message,
            title: event.title.map(event.string), time: time, body)
        return []
    }

    /// Whether a `begin` decoded in place takes the usual way, which ``applyBegin(_:id:parentSlot:line:sender:_:)``
    /// folds from the line's bytes: its id and parent without escapes, no attributes, its id not
    /// seen before and its parent, if it names one, running. Then the slot of that parent
    /// (`.some(nil)`: it names none); `nil` for anything else, which the general path folds (and
    /// reports).
    @inline(__always)
    private func usualBegin(_ event: borrowing LineEvent, id: LineEvent.Text) -> Int?? {
        guard !id.escaped, event.attributes == nil,
            slot(of: UnsafeBufferPointer(rebasing: event.bytes[id.range])) == nil
        else { return nil }
        guard let parent = event.parent else { return .some(nil) }
        guard !parent.escaped, let index = slot(of: UnsafeBufferPointer(rebasing: event.bytes[parent.range])),
            fold.isOpen(index)
        else { return nil }
        return index
    }

    /// A `begin` decoded in place (see ``usualBegin(_:id:)``): its id looked up from the line's
    /// bytes and its parent's id the one the store already holds, so only the new id and the
    /// texts become strings.
    private mutating func applyBegin(
        _ event: borrowing LineEvent, id: LineEvent.Text, parentSlot: Int?, line: Int, sender: Int32?,
        _ body: (ActivityUpdate) -> Void
    ) -> [Diagnostic] {
        releaseEvicted()
        let time = stamp(event.timestamp)
        let begin = ActivityEvent.Begin(
            id: event.activityID(id), title: event.string(event.title!), parent: parentSlot.map(fold.id(of:)),
            total: event.total?.value, completed: event.completed ?? 0, unit: event.unit.map(event.string),
            message: event.message.map(event.string), cancellable: event.cancellable, blocking: event.blocking,
            timestamp: time)
        let step = fold.begin(begin.id, at: nil, parent: begin.parent, parentAt: parentSlot)
        return insert(begin, step: step, time: time, line: line, owner: sender.map { .connection($0) }, body)
    }

    /// An `end` decoded in place: the activity found from the line's bytes, and the event's id
    /// the one the store already holds, so an end makes no `String` of its id.
    private mutating func applyEnd(
        _ event: borrowing LineEvent, id: LineEvent.Text, line: Int, sender: Int32?, _ body: (ActivityUpdate) -> Void
    ) -> [Diagnostic] {
        releaseEvicted()
        let time = stamp(event.timestamp)
        let index =
            id.escaped
            ? slot(of: event.activityID(id)) : slot(of: UnsafeBufferPointer(rebasing: event.bytes[id.range]))
        guard let index else { return problem(unknown: event.activityID(id), doing: .end, at: nil, line: line) }
        let end = ActivityEvent.End(
            id: slots[index]!.id, status: event.status, message: event.message.map(event.string),
            error: event.error.map(event.string), completed: event.completed, total: event.total, timestamp: time)
        return applyEnd(end, at: index, sender: sender, time: time, line: line, body)
    }

    /// Ends every open activity as `abandoned` (children first), as at the end of a stream.
    public mutating func finish(at time: Double, _ body: (ActivityUpdate) -> Void) {
        releaseEvicted()
        summary.lastTime = max(summary.lastTime ?? time, time)
        for index in fold.finish() { endOne(index, status: .abandoned, time: time, event: nil, body) }
    }

    /// Ends every open activity as `abandoned` and returns the changes (a convenience, as
    /// ``updates(applying:line:)`` is for ``apply(_:line:_:)``).
    public mutating func updates(finishingAt time: Double) -> [ActivityUpdate] {
        var updates: [ActivityUpdate] = []
        finish(at: time) { updates.append($0) }
        return updates
    }

    /// The event's time: its own, else the last one seen; noted in the summary.
    @inline(__always)
    private mutating func stamp(_ timestamp: Double?) -> Double {
        let time = timestamp ?? summary.lastTime ?? 0
        if summary.firstTime == nil { summary.firstTime = time }
        if time > summary.lastTime ?? -.infinity { summary.lastTime = time }
        return time
    }

    // MARK: - Slots

    @inline(__always)
    func handle(at index: Int) -> ActivityHandle {
        ActivityHandle(index: index, generation: fold.generation(of: index))
    }

    /// The slot of the activity with these id bytes, if the store holds it.
    @inline(__always)
    func slot(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        fold.slot(of: bytes)
    }

    func slot(of id: ActivityID) -> Int? {
        fold.slot(of: id)
    }

    /// Frees the slots of activities evicted by the previous call.
    @inline(__always)
    mutating func releaseEvicted() {
        guard fold.hasForgotten else { return }
        for index in fold.forgotten { slots[index] = nil }
        fold.release()
    }
}
