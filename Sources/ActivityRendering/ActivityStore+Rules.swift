import ActivityTerminal
import ActivityWire

/// The consumer rules, one event kind at a time, on slots found by handle.
extension ActivityStore {
    mutating func applyBegin(
        _ begin: ActivityEvent.Begin, time: Double, line: Int, owner: ActivityOwner?, _ body: (ActivityUpdate) -> Void
    ) -> [Diagnostic] {
        var begin = begin
        if let problem = ConsumerRules.begin(begin.id, standing: standing(of: begin.id)) {
            return record(line, problem)
        }
        guard openCount < limits.maxOpen else {
            summary.dropped += 1
            return []
        }
        var diagnostics: [Diagnostic] = []
        var runningParent: Int?
        if let parentID = begin.parent {
            let parentSlot = slot(of: parentID)
            if let problem = ConsumerRules.parent(parentID, standing: standing(ofSlot: parentSlot)) {
                diagnostics = record(line, problem)
                begin.parent = nil
            } else {
                runningParent = parentSlot
            }
        }
        return diagnostics + insert(begin, parentSlot: runningParent, time: time, owner: owner, body)
    }

    /// Makes the activity of a `begin` whose id is new and whose parent, when `parentSlot` names
    /// one, is running (the checks of the consumer rules done), and hands over its update.
    /// Returns no diagnostics: an array so that callers return it as their own.
    mutating func insert(
        _ begin: ActivityEvent.Begin, parentSlot: Int?, time: Double, owner: ActivityOwner?,
        _ body: (ActivityUpdate) -> Void
    ) -> [Diagnostic] {
        guard openCount < limits.maxOpen else {
            summary.dropped += 1
            return []
        }
        var depth = 0
        var parent: ActivityHandle?
        if let parentSlot {
            parent = handle(at: parentSlot)
            depth = slots[parentSlot]!.depth + 1
        }
        let index = takeSlot()
        let handle = handle(at: index)
        if let parent {
            slots[parent.index]!.children.append(handle)
        } else {
            roots.append(handle)
        }
        var node = ActivityState(
            identity: .init(
                id: begin.id, handle: handle, parent: parent, depth: depth,
                unit: begin.unit.map(TerminalSanitizer.display), cancellable: begin.cancellable,
                blocking: begin.blocking, attrs: Self.sanitized(begin.attrs), startTime: time, sequence: sequence,
                owner: owner),
            title: TerminalSanitizer.display(begin.title), message: begin.message.map(TerminalSanitizer.display),
            completed: begin.completed, total: begin.total)
        node.estimator.record(completed: begin.completed, at: time)
        slots[index] = node
        var raw = begin.id.rawValue
        let hash = raw.withUTF8 { ids.hash($0) }
        ids.insert(hash: hash, slot: index)
        sequence += 1
        openCount += 1
        summary.begun += 1
        body(ActivityUpdate(.begin(begin), handle: handle, timestamp: time))
        return []
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

    /// The hot path: the running activity in slot `index` (its callers checked that it runs and
    /// who may change it) changed in place, and an update that carries only what the event set.
    @inline(__always)
    mutating func applyProgress(
        at index: Int, completed: Double?, total: ActivityEvent.Total?, message: String?, title: String?,
        time: Double, _ body: (ActivityUpdate) -> Void
    ) {
        var text: ActivityUpdate.ProgressText?
        if message != nil || title != nil {
            if let title { slots[index]!.title = TerminalSanitizer.display(title) }
            if let message { slots[index]!.message = TerminalSanitizer.display(message) }
            text = ActivityUpdate.ProgressText(message: message, title: title)
        }
        Self.advance(&slots[index]!, completed: completed, total: total, at: time)
        body(
            ActivityUpdate(
                kind: .progress, handle: handle(at: index), timestamp: time,
                payload: .progress(completed: completed, total: total, text: text)))
    }

    /// The numbers of a progress, set in one access to the slot (each `slots[index]!` is a
    /// uniqueness check and an unwrap).
    @inline(__always)
    private static func advance(
        _ activity: inout ActivityState, completed: Double?, total: ActivityEvent.Total?, at time: Double
    ) {
        if let total { activity.total = total.value }
        if let completed {
            activity.completed = completed
            activity.estimator.record(completed: completed, at: time)
        }
    }

    mutating func applyLog(
        _ log: ActivityEvent.Log, line: Int, _ body: (ActivityUpdate) -> Void
    ) -> [Diagnostic] {
        var log = log
        var diagnostics: [Diagnostic] = []
        var handle: ActivityHandle?
        if let id = log.id {
            if let index = slot(of: id), slots[index]!.isRunning {
                handle = self.handle(at: index)
            } else {
                diagnostics = problem(unknown: id, doing: .log, line: line)
                log.id = nil
            }
        }
        body(ActivityUpdate(.log(log), handle: handle, timestamp: log.timestamp ?? 0))
        return diagnostics
    }

    /// Ends the activity in slot `index` (found for `end.id`), if running, and if the reporter on
    /// `sender` (when there is one) may.
    mutating func applyEnd(
        _ end: ActivityEvent.End, at index: Int?, sender: Int32?, time: Double, line: Int,
        _ body: (ActivityUpdate) -> Void
    ) -> [Diagnostic] {
        guard let index, slots[index]!.isRunning else {
            return problem(unknown: end.id, doing: .end, line: line)
        }
        if let refusal = refusal(of: sender, at: index, doing: .end, line: line) { return refusal }
        var diagnostics: [Diagnostic] = []
        let children = slots[index]!.children
        if !children.isEmpty {
            // By title for the person reading, with the id for the one who fixes the producer.
            let names = openDescendants(of: handle(at: index)).compactMap { self[$0] }.map {
                "\"\($0.title)\" (\($0.id))"
            }
            let title = slots[index]!.title
            diagnostics = record(line, .childrenOpen(ended: "\"\(title)\" (\(end.id))", descendants: names))
        }
        if let message = end.message { slots[index]!.message = TerminalSanitizer.display(message) }
        if let total = end.total { slots[index]!.total = total.value }
        if let completed = end.completed {
            slots[index]!.completed = completed
            slots[index]!.estimator.record(completed: completed, at: time)
        }
        slots[index]!.error = end.error.map(TerminalSanitizer.display)
        if children.isEmpty {
            endOne(handle(at: index), status: end.status, time: time, event: end, body)
        } else {
            self.end(handle(at: index), status: end.status, time: time, event: end, body)
        }
        return diagnostics
    }

    /// Ends `handle` and its open descendants (as `abandoned`), children before their parents.
    /// Iterative: a hostile stream may nest thousands deep, and this may run on a small stack.
    mutating func end(
        _ handle: ActivityHandle, status: ActivityEvent.Status, time: Double, event: ActivityEvent.End? = nil,
        _ body: (ActivityUpdate) -> Void
    ) {
        guard holds(handle) else { return }
        var order: [ActivityHandle] = []
        var stack: [ActivityHandle] = [handle]
        while let next = stack.popLast() {
            order.append(next)
            if holds(next), let children = slots[next.index]?.children { stack.append(contentsOf: children) }
        }
        for next in order.reversed() {
            let isTarget = next == handle
            endOne(next, status: isTarget ? status : .abandoned, time: time, event: isTarget ? event : nil, body)
        }
    }

    /// Ends one activity whose children have all ended.
    private mutating func endOne(
        _ handle: ActivityHandle, status: ActivityEvent.Status, time: Double, event: ActivityEvent.End?,
        _ body: (ActivityUpdate) -> Void
    ) {
        let index = handle.index
        guard holds(handle), slots[index]!.isRunning else { return }
        var normalized = event ?? ActivityEvent.End(id: slots[index]!.id, status: status)
        normalized.timestamp = time
        slots[index]!.status = status
        slots[index]!.endTime = max(time, slots[index]!.startTime)
        if let parent = slots[index]!.parent, holds(parent),
            let childIndex = slots[parent.index]!.children.firstIndex(of: handle)
        {
            slots[parent.index]!.children.remove(at: childIndex)
        } else if let rootIndex = roots.firstIndex(of: handle) {
            roots.remove(at: rootIndex)
        }
        openCount -= 1
        summary.ended[status, default: 0] += 1
        body(ActivityUpdate(.end(normalized), handle: handle, timestamp: time))
        retire(handle)
    }

    /// The diagnostic for an event that the reporter on `sender` may not send about the running
    /// activity in slot `index`; `nil` when it may (or when the event is the caller's own).
    @inline(__always)
    mutating func refusal(of sender: Int32?, at index: Int, doing: ConsumerRules.Doing, line: Int) -> [Diagnostic]? {
        guard let sender, let owner = slots[index]!.identity.owner, !owner.admits(sender) else { return nil }
        return record(
            line, .notOwner,
            "a reporter sent \(doing.rawValue) for an activity another reporter began (\(slots[index]!.id.rawValue)); skipped"
        )
    }

    /// Ends, as abandoned, the running activities `owner` began, the latest begun first: their
    /// reporter went away. A pass over what is open: it runs when a reporter goes, not per event.
    mutating func abandon(
        ownedBy owner: ActivityOwner, time: Double, _ body: (ActivityUpdate) -> Void
    ) -> [Diagnostic] {
        var owned: [(sequence: Int, index: Int, id: ActivityID)] = []
        for (index, slot) in slots.enumerated() {
            guard let slot, slot.isRunning, slot.identity.owner == owner else { continue }
            owned.append((slot.sequence, index, slot.id))
        }
        var diagnostics: [Diagnostic] = []
        for (_, index, id) in owned.sorted(by: { $0.sequence > $1.sequence }) {
            let end = ActivityEvent.End(id: id, status: .abandoned, message: "its reporter went away", timestamp: time)
            diagnostics += applyEnd(end, at: index, sender: nil, time: time, line: 0, body)
        }
        return diagnostics
    }

    /// The problem of a `progress`, `log` or `end` for `id`, which the caller found not running.
    mutating func problem(unknown id: ActivityID, doing: ConsumerRules.Doing, line: Int) -> [Diagnostic] {
        let standing = standing(of: id)
        return record(line, .notOpen(doing, id, standing == .open ? .notOpen : standing))
    }

    /// What the store knows of `id`: it keeps an ended activity for a while, then forgets it.
    func standing(of id: ActivityID) -> ConsumerRules.Standing {
        standing(ofSlot: slot(of: id))
    }

    private func standing(ofSlot index: Int?) -> ConsumerRules.Standing {
        guard let index else { return .notOpen }
        return slots[index]!.isRunning ? .open : .ended
    }

    /// The open descendants of `handle`, each before its own children, in the order they began.
    private func openDescendants(of handle: ActivityHandle) -> [ActivityHandle] {
        var result: [ActivityHandle] = []
        var stack = (slots[handle.index]?.children ?? []).reversed() as [ActivityHandle]
        while let next = stack.popLast() {
            result.append(next)
            if holds(next), let children = slots[next.index]?.children { stack.append(contentsOf: children.reversed()) }
        }
        return result
    }

    mutating func record(_ line: Int, _ problem: ConsumerRules.Problem) -> [Diagnostic] {
        record(line, problem.code, problem.message)
    }

    mutating func record(_ line: Int, _ code: Diagnostic.Code, _ message: String) -> [Diagnostic] {
        let diagnostic = Diagnostic(line: line, code: code, message: message)
        count(diagnostic)
        return [diagnostic]
    }
}
