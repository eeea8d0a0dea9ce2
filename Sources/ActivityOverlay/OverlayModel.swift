@_spi(Consumers) import ActivityWire

/// The overlay's brain: a pure reducer from (state, input, time) to (state, effects).
///
/// The model reads no clock and starts no timer. The caller passes the time, in integer
/// milliseconds on any monotonic clock, with every input, and sends ``OverlayInput/tick`` at
/// ``nextDeadline``. A deadline that was superseded simply never matters. Time never goes
/// backwards inside the model: an earlier time than the last one counts as the last one.
/// Deadlines that a late input skips over are applied first, each at its own time, so the model
/// stays exact even when ticks come late.
///
/// The rules (`Docs/overlay.md`, "The timing rules"): grace counts from the first `begin` and does not move; work that ends
/// during the grace shows nothing, but input is blocked meanwhile when an activity asked for it;
/// once shown, the overlay stays at least the minimum show time; success and failure marks linger;
/// a `begin` during a hold or a flash reuses the presentation; the label is the highest-priority,
/// latest-begun running activity's; blocking and dimming are the most any activity asked; the
/// weighted fraction never moves backwards while the set of activities is unchanged; one cancel tap
/// emits exactly one ``OverlayEffect/cancelRequested(_:)``; announcements are made when shown, on a
/// title change (debounced) and on success or failure; duplicate and unknown ends do nothing.
///
/// ```swift
/// var model = OverlayModel()
/// _ = model.reduce(.event(.begin(.init(id: id, title: "Signing in", blocking: .dim))), at: 0)
/// model.state.blocksInput   // true: no double submit during the grace
/// model.nextDeadline        // 500
/// let effects = model.reduce(.tick, at: 500)   // [.announce("Signing in")]
/// model.state.isVisible     // true
/// ```
public struct OverlayModel: Hashable, Sendable {
    /// The timings and style.
    public let configuration: OverlayConfiguration
    /// The current state.
    public internal(set) var state = OverlayState()
    /// The model's time, in milliseconds: the latest time it was given. It never decreases.
    public internal(set) var time = 0

    /// The rules, applied: which ids are open and nested where. It forgets an id once it ends
    /// (the model lives as long as the app: memory bounded by what is open).
    package private(set) var rules = ConsumerFold(retainedEnded: 0)
    /// Running top-level activities of the current presentation.
    var running: [ActivityID: Tracked] = [:]
    /// Nested activities of running ones, mapped to their top-level activity.
    var nested: [ActivityID: ActivityID] = [:]
    /// The summed weight of the presentation's activities that have ended (each counts as done).
    var finishedWeight = 0.0
    /// The fraction last shown; it only grows while the set of activities is unchanged.
    var shownFraction = 0.0
    /// The number of `begin`s seen, to order activities.
    var beginCount = 0
    /// When the grace ends (pending) or ended.
    var graceEnd = 0
    /// When the overlay became visible.
    var shownAt: Int?
    /// When a hold or a flash ends.
    var lingerEnd = 0
    /// The first failure of the presentation, kept until everything has ended.
    var failure: Outcome?
    /// The message of the latest successful end.
    var successMessage: String?
    /// A title waiting for its announcement, and when it is due.
    var pendingAnnouncement: PendingAnnouncement?
    /// The title last announced.
    var announcedTitle: String?

    /// A top-level activity the overlay follows.
    struct Tracked: Hashable, Sendable {
        var title: String
        var message: String?
        var order: Int
        var priority: Double
        var weight: Double
        var blocking: ActivityEvent.Blocking
        var cancellable: Bool
        var cancelRequested = false
        /// A frame around another program's work (`activity run`'s own activity): its children
        /// are top-level, and it shows only while none runs.
        var isFrame = false
        var completed: Double
        var total: Double?
        var timeoutAt: Int?

        var fraction: Double {
            guard let total else { return 0 }
            guard total > 0 else { return completed > 0 ? 1 : 0 }
            return min(1, max(0, completed / total))
        }
    }

    /// A changed title waiting until it has been stable long enough to announce.
    struct PendingAnnouncement: Hashable, Sendable {
        var title: String
        var due: Int
    }

    /// How a presentation's work went wrong.
    struct Outcome: Hashable, Sendable {
        var title: String
        var detail: String?
    }

    /// Creates an idle model.
    public init(configuration: OverlayConfiguration = OverlayConfiguration()) {
        self.configuration = configuration.normalized
    }

    /// The time at which the model next needs a ``OverlayInput/tick``, or `nil` when nothing is due.
    public var nextDeadline: Int? {
        var deadline: Int?
        func consider(_ time: Int?) {
            guard let time else { return }
            deadline = min(deadline ?? time, time)
        }
        switch state.phase {
        case .idle: return nil
        case .pending: consider(graceEnd)
        case .visible: break
        case .holding, .flashing: consider(lingerEnd)
        }
        for activity in running.values { consider(activity.timeoutAt) }
        if let shownAt { consider(shownAt + configuration.maximumVisibleMilliseconds) }
        consider(pendingAnnouncement?.due)
        return deadline
    }

    /// Applies `input` at time `now` (milliseconds) and returns the effects to perform, in order.
    public mutating func reduce(_ input: OverlayInput, at now: Int) -> [OverlayEffect] {
        reduceFollowingRules(input, at: now).effects
    }

    /// Applies `input` at time `now`, and returns the effects and, for an event, what the
    /// consumer rules made of it (the model reports no problem; tests hold it to the other
    /// consumers with this).
    package mutating func reduceFollowingRules(
        _ input: OverlayInput, at now: Int
    ) -> (effects: [OverlayEffect], step: ConsumerFold.Step?) {
        var effects: [OverlayEffect] = []
        var step: ConsumerFold.Step?
        let now = max(now, time)
        advance(to: now, effects: &effects)
        switch input {
        case .event(let event): step = apply(event, at: now, effects: &effects)
        case .tick: break
        case .cancelTapped: tapCancel(effects: &effects)
        case .flashTapped: tapFlash(at: now)
        case .scopeEnded:
            _ = rules.finish()
            rules.release()
            for id in running.keys.sorted() {
                end(id, status: .abandoned, message: nil, error: nil, at: now, effects: &effects)
            }
        }
        derive()
        return (effects, step)
    }
}

// MARK: - Deadlines

extension OverlayModel {
    /// Applies every deadline up to `now`, each at its own time.
    mutating func advance(to now: Int, effects: inout [OverlayEffect]) {
        while let deadline = nextDeadline, deadline <= now {
            time = max(time, deadline)
            fire(at: time, effects: &effects)
            derive()
        }
        time = now
    }

    /// Applies what is due at `time`. Each branch removes the deadline it handles.
    mutating func fire(at time: Int, effects: inout [OverlayEffect]) {
        if let shownAt, time >= shownAt + configuration.maximumVisibleMilliseconds {
            requestCancel(running.keys.sorted(), effects: &effects)
            reset()
            return
        }
        if state.phase == .pending, time >= graceEnd {
            show(at: graceEnd, effects: &effects)
            return
        }
        if state.phase == .holding || state.phase == .flashing, time >= lingerEnd {
            reset()
            return
        }
        if let expired = running.filter({ ($0.value.timeoutAt ?? .max) <= time }).keys.min() {
            requestCancel([expired], effects: &effects)
            end(
                expired, status: .failure, message: nil, error: configuration.texts.timedOut, at: time,
                effects: &effects)
            return
        }
        if let pending = pendingAnnouncement, time >= pending.due {
            pendingAnnouncement = nil
            if state.phase == .visible, pending.title == currentTitle, pending.title != announcedTitle {
                announce(title: pending.title, effects: &effects)
            }
        }
    }

    /// Makes the overlay visible at `time`.
    mutating func show(at time: Int, effects: inout [OverlayEffect]) {
        shownAt = time
        state.phase = .visible
        derive()
        announce(title: state.title, effects: &effects)
    }

    mutating func announce(title: String, effects: inout [OverlayEffect]) {
        pendingAnnouncement = nil
        announcedTitle = title
        if !title.isEmpty { effects.append(.announce(title)) }
    }

    /// Ends the presentation: nothing runs, nothing shows.
    mutating func reset() {
        running = [:]
        nested = [:]
        finishedWeight = 0
        shownFraction = 0
        shownAt = nil
        failure = nil
        successMessage = nil
        pendingAnnouncement = nil
        announcedTitle = nil
        state.phase = .idle
    }
}

// MARK: - Inputs

extension OverlayModel {
    mutating func apply(_ event: ActivityEvent, at now: Int, effects: inout [OverlayEffect]) -> ConsumerFold.Step {
        let step = rules.apply(event)
        // Nothing here reads an ended activity after its event: the slots it forgot are free now.
        defer { rules.release() }
        switch (step.outcome, event) {
        case (.begun(_, let parent), .begin(let begin)):
            self.begin(begin, parent: parent.map(rules.id(of:)), at: now)
        case (.applied, .progress(let progress)):
            self.progress(progress)
        case (.ended(let slot, let abandoned), .end(let end)):
            // A frame's children are top-level here: ended with it, as abandoned.
            for id in abandoned.map(rules.id(of:)) {
                nested[id] = nil
                self.end(id, status: .abandoned, message: nil, error: nil, at: now, effects: &effects)
            }
            let id = rules.id(of: slot)
            guard running[id] != nil else {
                nested[id] = nil
                break
            }
            if let completed = end.completed { running[id]?.completed = completed }
            if let total = end.total { running[id]?.total = total.value }
            self.end(id, status: end.status, message: end.message, error: end.error, at: now, effects: &effects)
        default:
            break
        }
        return step
    }

    /// Follows an activity the rules opened under `parent` (`nil`: at the top).
    mutating func begin(_ begin: ActivityEvent.Begin, parent: ActivityID?, at now: Int) {
        // Nested under its parent, unless that parent is a frame (its children are the top-level
        // work) or no longer followed (its presentation was cut short).
        if let parent, running[parent]?.isFrame != true, let root = running[parent] != nil ? parent : nested[parent] {
            nested[begin.id] = root
            return
        }
        if running.isEmpty {
            finishedWeight = 0
            shownFraction = 0
            failure = nil
            successMessage = nil
        }
        switch state.phase {
        case .idle:
            state.presentationID += 1
            graceEnd = now + configuration.graceMilliseconds
            state.phase = .pending
        case .pending, .visible:
            break
        case .holding, .flashing:
            state.phase = .visible  // the same presentation: no new grace, no new announcement
        }
        beginCount += 1
        shownFraction = 0  // the set changed: the fraction may move back
        running[begin.id] = Tracked(
            title: Self.clean(begin.title), message: begin.message.map(Self.clean), order: beginCount,
            priority: Self.number(begin.attrs[OverlayConfiguration.priorityAttribute]) ?? 0,
            weight: Self.number(begin.attrs[OverlayConfiguration.weightAttribute]).flatMap { $0 > 0 ? $0 : nil } ?? 1,
            blocking: max(begin.blocking, configuration.minimumBlocking), cancellable: begin.cancellable,
            isFrame: begin.attrs[ActivityEvent.Begin.frameAttribute] == .bool(true), completed: begin.completed,
            total: begin.total, timeoutAt: configuration.activityTimeoutMilliseconds.map { now + $0 })
    }

    mutating func progress(_ progress: ActivityEvent.Progress) {
        // Only top-level activities count; a nested one's progress is its root's business.
        guard var activity = running[progress.id] else { return }
        if let completed = progress.completed { activity.completed = completed }
        if let total = progress.total { activity.total = total.value }
        if let title = progress.title { activity.title = Self.clean(title) }
        if let message = progress.message { activity.message = Self.clean(message) }
        running[progress.id] = activity
    }

    /// Ends a running top-level activity and, when it was the last, starts the hold or the flash.
    mutating func end(
        _ id: ActivityID, status: ActivityEvent.Status, message: String?, error: String?, at now: Int,
        effects: inout [OverlayEffect]
    ) {
        guard let activity = running.removeValue(forKey: id) else { return }
        nested = nested.filter { $0.value != id }
        finishedWeight += activity.weight
        switch status {
        case .failure, .abandoned:
            if failure == nil {
                let detail = error ?? message ?? (status == .abandoned ? configuration.texts.abandoned : nil)
                failure = Outcome(title: activity.title, detail: detail.map(Self.clean))
            }
        case .success:
            successMessage = message.map(Self.clean)
        case .cancelled, .skipped:
            break
        }
        guard running.isEmpty else { return }
        let flashesSuccess =
            status == .success
            && (configuration.successFlash == .always
                || (configuration.successFlash == .withMessage && successMessage != nil))
        switch state.phase {
        case .pending:
            guard failure != nil else { return reset() }  // short work shows nothing
            shownAt = now
            flash(at: now, linger: configuration.failureLingerMilliseconds, effects: &effects)
        case .visible:
            if failure != nil {
                flash(at: now, linger: configuration.failureLingerMilliseconds, effects: &effects)
            } else if flashesSuccess {
                flash(at: now, linger: configuration.successLingerMilliseconds, effects: &effects)
            } else {
                lingerEnd = (shownAt ?? now) + configuration.minimumShowMilliseconds
                state.phase = .holding
                if lingerEnd <= now { reset() }
            }
        case .idle, .holding, .flashing:
            break
        }
    }

    mutating func flash(at now: Int, linger: Int, effects: inout [OverlayEffect]) {
        state.phase = .flashing
        lingerEnd = max(now + linger, (shownAt ?? now) + configuration.minimumShowMilliseconds)
        pendingAnnouncement = nil
        derive()
        effects.append(.announce(outcomeAnnouncement))
        effects.append(.haptic(failure != nil ? .failure : .success))
    }

    mutating func tapCancel(effects: inout [OverlayEffect]) {
        guard state.phase == .pending || state.phase == .visible else { return }
        let ids = cancelCandidates.filter { !$0.value.cancelRequested }.keys.sorted()
        requestCancel(ids, effects: &effects)
    }

    /// What the cancel control cancels: the cancellable activities running inside frames, or,
    /// only when none of those is cancellable, the frames themselves. So Esc under `activity run`
    /// cancels the command's cancellable work and interrupts the whole command only when nothing
    /// it shows can be cancelled; while a cancel of the work is pending, the frame is left alone.
    var cancelCandidates: [ActivityID: Tracked] {
        let work = running.filter { $0.value.cancellable && !$0.value.isFrame }
        return work.isEmpty ? running.filter(\.value.cancellable) : work
    }

    mutating func requestCancel(_ ids: [ActivityID], effects: inout [OverlayEffect]) {
        let ids = ids.filter { running[$0]?.cancellable == true && running[$0]?.cancelRequested == false }
        guard !ids.isEmpty else { return }
        for id in ids { running[id]?.cancelRequested = true }
        effects.append(.cancelRequested(ids))
    }

    mutating func tapFlash(at now: Int) {
        guard state.phase == .flashing else { return }
        lingerEnd = min(lingerEnd, max(now, (shownAt ?? now) + configuration.minimumShowMilliseconds))
        if lingerEnd <= now { reset() }
    }

    static func number(_ value: AttributeValue?) -> Double? {
        guard case .number(let number) = value, number.isFinite else { return nil }
        return number
    }

    /// Text from the wire made safe to show (the one sanitizer of the terminal layer), so no
    /// producer can move a terminal's cursor, fake a line, or reverse the text with a bidi control.
    static func clean(_ text: String) -> String {
        TerminalSanitizer.display(text)
    }
}
