import ActivityTerminal
import ActivityWire

/// TTY mode: the overall progress in the terminal's tab or taskbar (OSC 9;4), where the terminal
/// is known to show it (``TerminalRenderer/Configuration/taskbarProgress``).
extension TerminalRenderer {
    /// How often the state is worked out again: a tab's bar needs no more.
    static let taskbarInterval = 0.5

    /// The sequence to put in this frame, if the state changed or is due again.
    func taskbarUpdate(_ store: ActivityStore, now: Double) -> [UInt8]? {
        guard configuration.taskbarProgress, now >= taskbar.checkedAt + Self.taskbarInterval || isFinished else {
            return nil
        }
        taskbar.checkedAt = now
        let state = isFinished ? TaskbarProgress.cleared : taskbarState(store)
        guard state != taskbar.sent || now >= taskbar.sentAt + TaskbarProgress.refreshInterval else { return nil }
        if state == .cleared && taskbar.sent == .cleared { return nil }
        taskbar.sent = state
        taskbar.sentAt = now
        return state.sequence
    }

    /// The top-level activities' progress (a frame's children count as top-level): the mean of
    /// their fractions; indeterminate when none knows its total; an error once anything failed.
    func taskbarState(_ store: ActivityStore) -> TaskbarProgress {
        var sum = 0.0
        var determinate = 0
        var running = 0
        store.forEachOpen { activity in
            guard activity.depth == 0 || store.isFrame(activity.parent), !activity.isFrame else { return true }
            running += 1
            if let fraction = activity.fraction {
                sum += fraction
                determinate += 1
            }
            return true
        }
        let percent = determinate > 0 ? DisplayPercent.value(sum / Double(determinate)) : 0
        if store.summary.count(.failure) > 0 { return .error(percent: percent) }
        if running == 0 { return .cleared }
        return determinate > 0 ? .normal(percent: percent) : .indeterminate
    }
}

/// What was last sent to the terminal's taskbar, and when.
struct TaskbarMemory {
    var sent = TaskbarProgress.cleared
    var sentAt = -Double.infinity
    var checkedAt = -Double.infinity
}
