import ActivityTerminal
public import ActivityWire

/// Folds an event stream into a tree of activities, applying every consumer rule of the protocol.
///
/// The store is a value: apply events in stream order and read the tree. Every event that
/// changes something comes back as an ``ActivityUpdate`` holding the *normalized* event (a `ts`
/// filled in, an unknown parent removed, `abandoned` ends made up for children left open) and the
/// activity after the change; renderers draw from those.
///
/// Consumer rules: `progress` and `end` for an id never begun, or already ended, are ignored and
/// counted (a `log` is still shown, without its id); a second `begin` is ignored; a `begin` naming
/// a parent that is not open is attached at the top; children still open when their parent ends
/// end first, as `abandoned`; ``finish(at:)`` ends everything still open as `abandoned`.
/// Diagnostics are counted in ``summary``, never fatal.
///
/// Text from the wire is sanitized once, here, where it enters the activities: the title,
/// message, unit, error and attribute keys and string values of every ``ActivityState`` are safe
/// to show (``TextSanitizer/display(_:)``), so no renderer can forget one. The events in the
/// updates stay as the producer sent them, for recordings and plugins.
///
/// Memory is bounded by the activities open at once: a finished activity is kept for late events
/// and then evicted, oldest first, once more than ``Limits/retainedFinished`` have finished; its
/// outcome lives on in ``summary``. At most ``Limits/maxOpen`` activities are open at once; a
/// `begin` past that is dropped and counted.
///
/// ```swift
/// var store = ActivityStore()
/// for update in store.apply(.begin(.init(id: ActivityID("a")!, title: "Build", timestamp: 0))) {
///     print(update.event.typeName, update.activity?.title ?? "")
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
    public private(set) var summary = ActivitySummary()
    /// The open top-level activities, in the order they began.
    public private(set) var roots: [ActivityID] = []
    /// How many activities are open.
    public private(set) var openCount = 0

    private var nodes: [ActivityID: ActivityState] = [:]
    private var finishedQueue: [ActivityID] = []
    private var finishedHead = 0
    private var sequence = 0

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The activity with `id`, open or recently finished.
    public subscript(id: ActivityID) -> ActivityState? { nodes[id] }

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
        guard let onCancelRequest, let state = nodes[id], state.isRunning, state.cancellable else { return false }
        onCancelRequest(id)
        return true
    }

    /// Whether `id` names a frame (see ``ActivityState/isFrame``).
    public func isFrame(_ id: ActivityID?) -> Bool {
        id.flatMap { nodes[$0] }?.isFrame ?? false
    }

    /// How many activities the store holds, open and finished (bounded by the limits).
    public var retainedCount: Int { nodes.count }

    /// The open activities in display order: depth first, each parent before its children.
    public func forEachOpen(_ body: (ActivityState) -> Bool) {
        var stack: [ActivityID] = []
        stack.reserveCapacity(min(roots.count, 256) + 16)
        // Roots are pushed lazily, so a frame of 20 lines over 10,000 roots stays cheap.
        var nextRoot = 0
        while true {
            let id: ActivityID
            if let pending = stack.popLast() {
                id = pending
            } else if nextRoot < roots.count {
                id = roots[nextRoot]
                nextRoot += 1
            } else {
                return
            }
            guard let index = nodes.index(forKey: id) else { continue }
            if !body(nodes.values[index]) { return }
            stack.append(contentsOf: nodes.values[index].children.reversed())
        }
    }

    /// The titles from the top-level activity down to `id`.
    public func path(of id: ActivityID) -> [String] {
        var titles: [String] = []
        var current: ActivityID? = id
        while let next = current, let node = nodes[next], titles.count < 64 {
            titles.append(node.title)
            current = node.parent
        }
        return titles.reversed()
    }

    /// Counts a diagnostic found outside the store (a line the decoder rejected).
    public mutating func count(_ diagnostic: Diagnostic) {
        summary.diagnostics[diagnostic.code, default: 0] += 1
    }

    /// Applies one event and returns what changed.
    public mutating func apply(_ event: ActivityEvent, line: Int = 0) -> [ActivityUpdate] {
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
        let time = event.timestamp ?? summary.lastTime ?? 0
        if summary.firstTime == nil { summary.firstTime = time }
        if time > summary.lastTime ?? -.infinity { summary.lastTime = time }
        switch consume event {
        case .begin(var begin):
            begin.timestamp = time
            return applyBegin(begin, time: time, line: line, body)
        case .progress(var progress):
            progress.timestamp = time
            return applyProgress(progress, time: time, line: line, body)
        case .log(var log):
            log.timestamp = time
            var diagnostics: [Diagnostic] = []
            if let id = log.id, nodes[id]?.isRunning != true {
                diagnostics = problem(unknown: id, doing: "log", line: line)
                log.id = nil
            }
            body(ActivityUpdate(event: .log(log), activity: log.id.flatMap { nodes[$0] }))
            return diagnostics
        case .end(var end):
            end.timestamp = time
            return applyEnd(end, time: time, line: line, body)
        }
    }

    /// Ends every open activity as `abandoned` (children first), as at the end of a stream.
    public mutating func finish(at time: Double, _ body: (ActivityUpdate) -> Void) {
        summary.lastTime = max(summary.lastTime ?? time, time)
        while let root = roots.first {
            end(root, status: .abandoned, time: time, body)
        }
    }

    /// Ends every open activity as `abandoned` and returns the changes.
    public mutating func finish(at time: Double) -> [ActivityUpdate] {
        var updates: [ActivityUpdate] = []
        finish(at: time) { updates.append($0) }
        return updates
    }

    // MARK: - Rules

    private mutating func applyBegin(
        _ begin: ActivityEvent.Begin, time: Double, line: Int, _ body: (ActivityUpdate) -> Void
    ) -> [Diagnostic] {
        var begin = begin
        if nodes.index(forKey: begin.id) != nil {
            return record(line, .duplicateBegin, "\"\(begin.id)\" has already begun")
        }
        guard openCount < limits.maxOpen else {
            summary.dropped += 1
            return []
        }
        var diagnostics: [Diagnostic] = []
        var depth = 0
        if let parentID = begin.parent {
            if let parentIndex = nodes.index(forKey: parentID),
                let parentDepth = Self.adopt(begin.id, into: &nodes.values[parentIndex])
            {
                depth = parentDepth + 1
            } else {
                let state = nodes[parentID] == nil ? "is not open" : "has already ended"
                diagnostics = record(line, .unknownParent, "the parent \"\(parentID)\" \(state); attached at the top")
                begin.parent = nil
            }
        }
        if begin.parent == nil { roots.append(begin.id) }
        var node = ActivityState(
            identity: .init(
                id: begin.id, parent: begin.parent, depth: depth, unit: begin.unit.map(TerminalSanitizer.display),
                cancellable: begin.cancellable, blocking: begin.blocking, attrs: Self.sanitized(begin.attrs),
                startTime: time, sequence: sequence),
            title: TerminalSanitizer.display(begin.title), message: begin.message.map(TerminalSanitizer.display),
            completed: begin.completed, total: begin.total)
        node.estimator.record(completed: begin.completed, at: time)
        sequence += 1
        openCount += 1
        summary.begun += 1
        nodes[begin.id] = node
        body(ActivityUpdate(event: .begin(begin), activity: node))
        return diagnostics
    }

    /// Attributes with their keys and string values safe to show.
    private static func sanitized(_ attrs: [String: AttributeValue]) -> [String: AttributeValue] {
        guard !attrs.isEmpty else { return attrs }
        var result: [String: AttributeValue] = [:]
        for (key, value) in attrs {
            if case .string(let text) = value {
                result[TerminalSanitizer.display(key)] = .string(TerminalSanitizer.display(text))
            } else {
                result[TerminalSanitizer.display(key)] = value
            }
        }
        return result
    }

    /// Adds `child` to a running `parent`'s children and returns the parent's depth; `nil` when
    /// the parent has ended.
    private static func adopt(_ child: ActivityID, into parent: inout ActivityState) -> Int? {
        guard parent.isRunning else { return nil }
        parent.children.append(child)
        return parent.depth
    }

    private mutating func applyProgress(
        _ progress: consuming ActivityEvent.Progress, time: Double, line: Int, _ body: (ActivityUpdate) -> Void
    ) -> [Diagnostic] {
        // The hot path: one hash lookup, the activity changed in place and copied once, into
        // the update.
        let id = progress.id
        guard let index = nodes.index(forKey: id),
            Self.applyProgress(progress, time: time, to: &nodes.values[index], body)
        else {
            return problem(unknown: id, doing: "progress", line: line)
        }
        return []
    }

    /// Applies `progress` to `node` and hands `body` the update; `false`, with nothing done,
    /// when the node has ended.
    private static func applyProgress(
        _ progress: consuming ActivityEvent.Progress, time: Double, to node: inout ActivityState,
        _ body: (ActivityUpdate) -> Void
    ) -> Bool {
        guard node.isRunning else { return false }
        if let title = progress.title { node.title = TerminalSanitizer.display(title) }
        if let message = progress.message { node.message = TerminalSanitizer.display(message) }
        if let total = progress.total { node.total = total.value }
        if let completed = progress.completed {
            node.completed = completed
            node.estimator.record(completed: completed, at: time)
        }
        body(ActivityUpdate(event: .progress(progress), activity: node))
        return true
    }

    private mutating func applyEnd(
        _ end: ActivityEvent.End, time: Double, line: Int, _ body: (ActivityUpdate) -> Void
    ) -> [Diagnostic] {
        guard let index = nodes.index(forKey: end.id), let leaf = Self.isRunningLeaf(&nodes.values[index]) else {
            return problem(unknown: end.id, doing: "end", line: line)
        }
        if leaf {
            endLeaf(at: index, end, time: time, body)
            return []
        }
        let node = nodes.values[index]
        var diagnostics: [Diagnostic] = []
        if !node.children.isEmpty {
            let names = node.children.map { "\"\($0)\"" }.joined(separator: ", ")
            diagnostics = record(line, .childrenOpen, "\"\(end.id)\" ended while \(names) still open")
        }
        _ = update(end.id) { node in
            if let message = end.message { node.message = TerminalSanitizer.display(message) }
            if let total = end.total { node.total = total.value }
            if let completed = end.completed {
                node.completed = completed
                node.estimator.record(completed: completed, at: time)
            }
            node.error = end.error.map(TerminalSanitizer.display)
        }
        self.end(end.id, status: end.status, time: time, event: end, body)
        return diagnostics
    }

    /// Whether a running `node` has no open children; `nil` when it has ended. (Reading through
    /// `inout` spares a copy of the node.)
    private static func isRunningLeaf(_ node: inout ActivityState) -> Bool? {
        node.isRunning ? node.children.isEmpty : nil
    }

    /// Applies `end` to the running activity at `index`, which has no open children: what
    /// ``applyEnd(_:time:line:_:)`` and ``endOne(_:status:time:event:_:)`` do, with one lookup
    /// for the activity.
    private mutating func endLeaf(
        at index: Dictionary<ActivityID, ActivityState>.Index, _ end: ActivityEvent.End, time: Double,
        _ body: (ActivityUpdate) -> Void
    ) {
        let ended = Self.applyEnd(end, time: time, to: &nodes.values[index])
        if let parent = ended.parent, let parentIndex = nodes.index(forKey: parent),
            let childIndex = nodes.values[parentIndex].children.firstIndex(of: end.id)
        {
            nodes.values[parentIndex].children.remove(at: childIndex)
        } else if let rootIndex = roots.firstIndex(of: end.id) {
            roots.remove(at: rootIndex)
        }
        openCount -= 1
        summary.ended[end.status, default: 0] += 1
        body(ActivityUpdate(event: .end(end), activity: ended))
        retire(end.id)
    }

    /// Applies `end` to `node` and ends it; returns the node after it.
    private static func applyEnd(
        _ end: borrowing ActivityEvent.End, time: Double, to node: inout ActivityState
    ) -> ActivityState {
        if let message = end.message { node.message = TerminalSanitizer.display(message) }
        if let total = end.total { node.total = total.value }
        if let completed = end.completed {
            node.completed = completed
            node.estimator.record(completed: completed, at: time)
        }
        node.error = end.error.map(TerminalSanitizer.display)
        node.status = end.status
        node.endTime = max(time, node.startTime)
        return node
    }

    /// Ends `id` and its open descendants (as `abandoned`), children before their parents.
    /// Iterative: a hostile stream may nest thousands deep, and this may run on a small stack.
    private mutating func end(
        _ id: ActivityID, status: ActivityEvent.Status, time: Double, event: ActivityEvent.End? = nil,
        _ body: (ActivityUpdate) -> Void
    ) {
        guard nodes[id] != nil else { return }
        var order: [ActivityID] = []
        var stack: [ActivityID] = [id]
        while let next = stack.popLast() {
            order.append(next)
            if let children = nodes[next]?.children { stack.append(contentsOf: children) }
        }
        for next in order.reversed() {
            let isTarget = next == id
            endOne(next, status: isTarget ? status : .abandoned, time: time, event: isTarget ? event : nil, body)
        }
    }

    /// Ends one activity whose children have all ended.
    private mutating func endOne(
        _ id: ActivityID, status: ActivityEvent.Status, time: Double, event: ActivityEvent.End?,
        _ body: (ActivityUpdate) -> Void
    ) {
        guard let node = nodes[id], node.isRunning else { return }
        var normalized = event ?? ActivityEvent.End(id: id, status: status)
        normalized.timestamp = time
        let ended = update(id) { node in
            node.status = status
            node.endTime = max(time, node.startTime)
        }
        if let parent = node.parent, let index = nodes[parent]?.children.firstIndex(of: id) {
            nodes[parent]!.children.remove(at: index)
        } else if let index = roots.firstIndex(of: id) {
            roots.remove(at: index)
        }
        openCount -= 1
        summary.ended[status, default: 0] += 1
        body(ActivityUpdate(event: .end(normalized), activity: ended))
        retire(id)
    }

    /// Keeps a finished activity for a while, evicting the oldest past the cap.
    private mutating func retire(_ id: ActivityID) {
        finishedQueue.append(id)
        while finishedQueue.count - finishedHead > limits.retainedFinished {
            nodes[finishedQueue[finishedHead]] = nil
            finishedHead += 1
        }
        if finishedHead > 1024, finishedHead * 2 > finishedQueue.count {
            finishedQueue.removeFirst(finishedHead)
            finishedHead = 0
        }
    }

    @inline(__always)
    private mutating func update(_ id: ActivityID, _ change: (inout ActivityState) -> Void) -> ActivityState {
        change(&nodes[id]!)
        return nodes[id]!
    }

    private mutating func problem(unknown id: ActivityID, doing what: String, line: Int) -> [Diagnostic] {
        if nodes[id] != nil {
            return record(line, .alreadyEnded, "\(what) for \"\(id)\", which has already ended")
        }
        return record(line, .unknownActivity, "\(what) for \"\(id)\", which is not open")
    }

    private mutating func record(_ line: Int, _ code: Diagnostic.Code, _ message: String) -> [Diagnostic] {
        let diagnostic = Diagnostic(line: line, code: code, message: message)
        count(diagnostic)
        return [diagnostic]
    }
}

/// One change to the store: the normalized event and the activity after it.
public struct ActivityUpdate: Sendable, Hashable {
    /// The event as applied: `ts` filled in, an unknown parent removed, a `log` for an unknown id
    /// without its id, and `end` events with status `abandoned` made up for activities left open.
    public var event: ActivityEvent
    /// The activity the event changed, after the change; `nil` for a `log` without an id.
    public var activity: ActivityState?

    public init(event: ActivityEvent, activity: ActivityState?) {
        self.event = event
        self.activity = activity
    }
}
