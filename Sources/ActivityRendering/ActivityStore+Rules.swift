import ActivityTerminal
@_spi(Consumers) import ActivityWire

/// The consumer rules, one event kind at a time, on slots found by handle.
extension ActivityStore {
    mutating func applyBegin(
        _ begin: ActivityEvent.Begin, time: Double, line: Int, owner: ActivityOwner?, _ body: (ActivityUpdate) -> Void
    ) -> [Diagnostic] {
        let step = fold.begin(begin.id, at: fold.slot(of: begin.id), parent: begin.parent)
        return insert(begin, step: step, time: time, line: line, owner: owner, body)
    }

    /// Makes the activity of a `begin` that the fold took `step` for, and hands over its update;
    /// returns the diagnostics of the step (a begin it refused or dropped makes nothing).
    mutating func insert(
        _ begin: consuming ActivityEvent.Begin, step: ConsumerFold.Step, time: Double, line: Int,
        owner: ActivityOwner?, _ body: (ActivityUpdate) -> Void
    ) -> [Diagnostic] {
        let diagnostics = step.problem.map { record(line, $0) } ?? []
        guard case .begun(let index, let parentSlot) = step.outcome else {
            if case .dropped = step.outcome { summary.dropped += 1 }
            return diagnostics
        }
        var depth = 0
        var parent: ActivityHandle?
        if let parentSlot {
            parent = handle(at: parentSlot)
            depth = slots[parentSlot]!.depth + 1
        } else {
            begin.parent = nil  // attached at the top
        }
        let handle = handle(at: index)
        if let parent { slots[parent.index]!.children.append(handle) }
        let title = TerminalSanitizer.display(begin.title)
        let message = begin.message.map(TerminalSanitizer.display)
        let completed = begin.completed
        let total = begin.total
        let identity = ActivityState.Identity(
            id: begin.id, handle: handle, parent: parent, depth: depth,
            unit: begin.unit.map(TerminalSanitizer.display), cancellable: begin.cancellable,
            blocking: begin.blocking, attrs: Self.sanitized(begin.attrs), startTime: time, sequence: sequence,
            owner: owner, begin: begin)
        // Made whole before it is stored: each change through `slots[index]!` is a check of its own.
        var node = ActivityState(identity: identity, title: title, message: message, completed: completed, total: total)
        node.estimator.record(completed: completed, at: time)
        if index == slots.count { slots.append(consume node) } else { slots[index] = consume node }
        sequence += 1
        summary.begun += 1
        body(ActivityUpdate(kind: .begin, handle: handle, timestamp: time, payload: .object(identity)))
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

    /// The hot path: the running activity in slot `index` (its callers checked that it runs and
    /// who may change it) changed in place, and an update that carries only what the event set.
    /// `message`: as shown (sanitized) and as sent, made by the caller, which may have it already.
    @inline(__always)
    mutating func applyProgress(
        at index: Int, completed: Double?, total: ActivityEvent.Total?, message: RepeatedText.Message?,
        title: String?, time: Double, _ body: (ActivityUpdate) -> Void
    ) {
        var text: ActivityUpdate.ProgressText?
        if let message { slots[index]!.message = message.shown }
        if let title {
            slots[index]!.title = TerminalSanitizer.display(title)
            text = ActivityUpdate.ProgressText(message: message?.text, title: title)
        } else {
            text = message?.sent
        }
        Self.advance(&slots[index]!, completed: completed, total: total, at: time)
        body(
            ActivityUpdate(
                kind: .progress, handle: handle(at: index), timestamp: time,
                payload: .numbers(completed: completed, total: total, status: nil, text: text)))
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
            let index = slot(of: id)
            if let index, fold.isOpen(index) {
                handle = self.handle(at: index)
            } else {
                diagnostics = problem(unknown: id, doing: .log, at: index, line: line)
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
        guard let index, fold.isOpen(index) else {
            return problem(unknown: end.id, doing: .end, at: index, line: line)
        }
        if let refusal = refusal(of: sender, at: index, doing: .end, line: line) { return refusal }
        let step = fold.end(end.id, at: index)
        guard case .ended(_, let abandoned) = step.outcome else { return step.problem.map { record(line, $0) } ?? [] }
        var diagnostics: [Diagnostic] = []
        if !abandoned.isEmpty {
            // By title for the person reading, with the id for the one who fixes the producer.
            let names = abandoned.map { "\"\(slots[$0]!.title)\" (\(slots[$0]!.id))" }
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
        for descendant in abandoned { endOne(descendant, status: .abandoned, time: time, event: nil, body) }
        endOne(index, status: end.status, time: time, event: end, body)
        return diagnostics
    }

    /// Hands over the end of the activity in slot `index`, which the fold has ended (its open
    /// descendants before it).
    mutating func endOne(
        _ index: Int, status: ActivityEvent.Status, time: Double, event: ActivityEvent.End?,
        _ body: (ActivityUpdate) -> Void
    ) {
        let handle = handle(at: index)
        slots[index]!.status = status
        slots[index]!.endTime = max(time, slots[index]!.startTime)
        if let parent = slots[index]!.parent, holds(parent),
            let childIndex = slots[parent.index]!.children.firstIndex(of: handle)
        {
            slots[parent.index]!.children.remove(at: childIndex)
        }
        summary.countEnd(status)
        var text: ActivityUpdate.EndText?
        if let event, event.message != nil || event.error != nil {
            text = ActivityUpdate.EndText(message: event.message, error: event.error)
        }
        body(
            ActivityUpdate(
                kind: .end, handle: handle, timestamp: time,
                payload: .numbers(completed: event?.completed, total: event?.total, status: status, text: text)))
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

    /// The problem of a `progress`, `log` or `end` for `id`, held at `index` (its lookup), which
    /// the caller found not running.
    mutating func problem(unknown id: ActivityID, doing: ConsumerRules.Doing, at index: Int?, line: Int) -> [Diagnostic]
    {
        fold.applies(doing, id, at: index).problem.map { record(line, $0) } ?? []
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
