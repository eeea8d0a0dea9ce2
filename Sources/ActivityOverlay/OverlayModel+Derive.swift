import ActivityWire

extension OverlayModel {
    /// The running activities the label and the bar are about: a frame only while nothing runs
    /// inside it.
    var shownActivities: [Tracked] {
        let work = running.values.filter { !$0.isFrame }
        return work.isEmpty ? Array(running.values) : work
    }

    /// The running activity whose title is the label: highest priority, then latest begun.
    var labelActivity: Tracked? {
        shownActivities.max { ($0.priority, $0.order) < ($1.priority, $1.order) }
    }

    /// The title the label shows now.
    var currentTitle: String { labelActivity?.title ?? state.title }

    /// The combined fraction of the presentation's activities: each weighs its weight, ended ones
    /// count as done.
    var combinedFraction: Double {
        var done = finishedWeight
        var all = finishedWeight
        for activity in shownActivities {
            done += activity.weight * activity.fraction
            all += activity.weight
        }
        return all > 0 ? min(1, done / all) : 0
    }

    /// Recomputes the state's presentation fields from the bookkeeping.
    mutating func derive() {
        switch state.phase {
        case .idle:
            let presentationID = state.presentationID
            state = OverlayState()
            state.presentationID = presentationID
            return
        case .pending, .visible:
            deriveRunning()
        case .holding:
            state.cancel = .hidden  // the last running picture stays until the minimum has passed
        case .flashing:
            deriveFlash()
        }
        state.isVisible = state.phase != .pending
        state.replacesContent = state.isVisible && configuration.style == .replaceContent
        if !state.isVisible { state.dims = false }
        state.accessibilityLabel = state.title
    }

    mutating func deriveRunning() {
        guard let label = labelActivity else { return }
        let blocking = running.values.map(\.blocking).max() ?? .none
        state.blocksInput = blocking >= .block
        state.dims = blocking == .dim
        if state.title != label.title, state.phase == .visible {
            pendingAnnouncement =
                label.title == announcedTitle
                ? nil
                : PendingAnnouncement(title: label.title, due: time + configuration.announcementDebounceMilliseconds)
        }
        state.title = label.title
        state.message = label.message
        shownFraction = max(shownFraction, combinedFraction)
        if shownActivities.contains(where: { $0.total == nil }) {
            state.content = .spinner
            state.accessibilityValue = configuration.texts.inProgress
        } else {
            state.content = .progress(shownFraction)
            let percent = DisplayPercent.value(shownFraction)
            state.accessibilityValue = configuration.texts.percent.replacing("%d", with: String(percent))
        }
        let cancellable = cancelCandidates.values
        state.cancel =
            cancellable.isEmpty
            ? .hidden : cancellable.contains { !$0.cancelRequested } ? .available : .requested
    }

    mutating func deriveFlash() {
        state.cancel = .hidden
        if let failure {
            state.content = .failure
            state.title = failure.title
            state.message = failure.detail ?? configuration.texts.failed
        } else {
            state.content = .success
            state.message = successMessage ?? configuration.texts.succeeded
        }
        state.accessibilityValue = state.message
    }

    /// What is announced when a mark flashes.
    var outcomeAnnouncement: String {
        let detail = state.message ?? ""
        if state.title.isEmpty { return detail }
        if detail.isEmpty { return state.title }
        return "\(state.title): \(detail)"
    }
}
