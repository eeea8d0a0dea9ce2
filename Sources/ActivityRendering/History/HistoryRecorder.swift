import ActivityWire

/// Notes how long each activity that succeeds took, by title path, and adds the runs to the
/// history file at the end (``HistoryFile``).
///
/// At most ``ActivityHistory/maxEntries`` paths are noted in one session; later new paths are
/// not. The file is written by ``save()``, which the session calls once every activity has
/// ended and before the displays draw their last frame, so a warning still reaches them.
final class HistoryRecorder: ActivityRenderer {
    let path: String
    /// What the file held when the session began: the estimates shown.
    let known: ActivityHistory
    /// What this session adds.
    private(set) var runs = ActivityHistory()
    /// Whether the file may be written (it is a history, or there is none yet).
    private let writable: Bool
    /// The warning loading gave, taken once by the session.
    private(set) var loadWarning: String?

    init(path: String) {
        self.path = path
        let loaded = HistoryFile.load(path)
        known = loaded.history
        writable = loaded.writable
        loadWarning = loaded.warning
    }

    func render(_ update: ActivityUpdate, in store: ActivityStore) {
        guard update.kind == .end, let handle = update.handle, let activity = store[handle],
            activity.status == .success
        else { return }
        let titles = store.path(of: handle)
        guard runs.entries.count < ActivityHistory.maxEntries || runs.entry(for: titles) != nil else { return }
        runs.record(
            path: titles, duration: activity.duration(at: update.timestamp), completed: activity.completed,
            total: activity.total, endedAt: update.timestamp)
    }

    /// Adds this session's runs to the file; returns a warning when that failed.
    func save() -> String? {
        // A session that ran nothing to completion has nothing to add: the file is not touched.
        guard writable, !runs.isEmpty else { return nil }
        return HistoryFile.save(runs, to: path)
    }
}
