import ActivityWire

/// Notes how long each activity that succeeds took, by title path, and adds the runs to the
/// history file at the end (``HistoryFile``).
///
/// At most ``ActivityHistory/maxEntries`` paths are noted in one session; later new paths are
/// not. The file is written by ``save()``, which the session calls once every activity has
/// ended and before the displays draw their last frame, so a warning still reaches them.
///
/// A display that shows estimates (TTY and plain: "usually 2m10s", "slower than usual") reads the
/// file when the session begins. The others (log, JSON lines) show none, so they read it only at
/// the end, and only when there are runs to add: a session that ran nothing to completion never
/// opens it.
final class HistoryRecorder: ActivityRenderer {
    let path: String
    /// What the file held when the session began: the estimates shown. Empty when the display
    /// shows none (the file was not read).
    let known: ActivityHistory
    /// What this session adds.
    private(set) var runs = ActivityHistory()
    /// Whether the file was read at the start, and then whether it may be written (it is a
    /// history, or there is none yet).
    private let loadedWritable: Bool?
    /// The warning loading gave, taken once by the session.
    private(set) var loadWarning: String?
    /// Each activity's key in the history.
    private var keys = PathTitleCache(separator: ActivityHistory.keySeparator)
    /// The titles that end the paths noted: once no new path is noted, an end whose title ends
    /// none of them cannot update one, and its key is neither made nor looked up.
    private var notedTitles: Set<String> = []

    /// - Parameter readsEstimates: whether to read the file now, for a display that shows
    ///   estimates; otherwise ``save()`` reads it.
    init(path: String, readsEstimates: Bool) {
        self.path = path
        guard readsEstimates else {
            known = ActivityHistory()
            loadedWritable = nil
            return
        }
        let loaded = HistoryFile.load(path)
        known = loaded.history
        loadedWritable = loaded.writable
        loadWarning = loaded.warning
    }

    func render(_ update: ActivityUpdate, in store: ActivityStore) {
        if update.progressTitle != nil { keys.titleChanged() }
        guard update.kind == .end, let handle = update.handle, let activity = store[handle],
            activity.status == .success
        else { return }
        let full = runs.entries.count >= ActivityHistory.maxEntries
        if full, !notedTitles.contains(activity.title) { return }
        let key = keys.title(of: activity, in: store)
        guard !full || runs.entry(forKey: key) != nil else { return }
        if !full { notedTitles.insert(activity.title) }
        runs.record(
            key: key, path: store.path(of: handle), duration: activity.duration(at: update.timestamp),
            completed: activity.completed, total: activity.total, endedAt: update.timestamp)
    }

    /// Adds this session's runs to the file; returns the warnings, the loading's first when the
    /// file is read only now.
    func save() -> [String] {
        // A session that ran nothing to completion has nothing to add: the file is not touched.
        guard !runs.isEmpty else { return [] }
        var warnings: [String] = []
        var writable = loadedWritable
        if writable == nil {
            let loaded = HistoryFile.load(path)
            writable = loaded.writable
            if let warning = loaded.warning { warnings.append(warning) }
        }
        guard writable == true else { return warnings }
        if let warning = HistoryFile.save(runs, to: path) { warnings.append(warning) }
        return warnings
    }
}
