package import ActivityWire

/// The TTY display's cancel key (Esc), where the display may take a key from the keyboard
/// (`activity run` offers it only while the command's terminal is in line mode, see
/// `Docs/cli.md`).
///
/// It cancels what the overlay's Esc cancels: the cancellable activities running inside frames,
/// or, only when none of those is cancellable, the frames themselves. Each activity is asked once:
/// a press while its cancel is pending asks nothing more, and the live region says
/// "cancelling…" until it ends.
package struct CancelKey: Sendable {
    /// Whether the owner of the keyboard offers the key now.
    package var isOffered = false
    /// The activities the key asked to cancel, until they are seen ended.
    package private(set) var requested: Set<ActivityID> = []

    package init() {}

    /// What the live region says about the key.
    package enum Hint: Equatable, Sendable {
        /// Esc would cancel `title` (and `others` more activities).
        case available(title: String, others: Int)
        /// Every activity Esc could cancel has been asked; `title` is one of them.
        case cancelling(title: String)
    }

    /// The hint to show, or `nil` when the key is not offered or there is nothing to cancel.
    /// Forgets requests for activities that have ended.
    package mutating func hint(in store: ActivityStore) -> Hint? {
        guard isOffered else { return nil }
        let candidates = Self.candidates(in: store)
        requested = requested.filter { id in store[id]?.isRunning == true }
        let waiting = candidates.filter { !requested.contains($0.id) }
        if let first = waiting.first { return .available(title: first.title, others: waiting.count - 1) }
        if let first = candidates.first { return .cancelling(title: first.title) }
        return nil
    }

    /// The key was pressed. Returns whether the display took it (the key is offered and something
    /// is cancellable or being cancelled), and the activities to ask to cancel now: none while
    /// every candidate's cancel is pending.
    package mutating func press(in store: ActivityStore) -> (taken: Bool, cancel: [ActivityID]) {
        guard hint(in: store) != nil else { return (false, []) }
        let ids = Self.candidates(in: store).map(\.id).filter { !requested.contains($0) }
        requested.formUnion(ids)
        return (true, ids)
    }

    /// The running cancellable activities inside frames, in display order; the cancellable frames
    /// when there are none.
    static func candidates(in store: ActivityStore) -> [ActivityState] {
        var work: [ActivityState] = []
        var frames: [ActivityState] = []
        store.forEachOpen { activity in
            if activity.isRunning && activity.cancellable {
                if activity.isFrame { frames.append(activity) } else { work.append(activity) }
            }
            return true
        }
        return work.isEmpty ? frames : work
    }
}
