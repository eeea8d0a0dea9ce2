/// rich's progress displays (Python): `track(…)` and `Progress` with one or more tasks, read row by
/// row (``RichRow``). Each task is an activity titled by its description, counted as its columns
/// show it: `M/N` (MofNCompleteColumn) as a count, `1.2/5.0 MB` (DownloadColumn) in bytes, and a
/// percentage alone (the default columns, `track`) in percent of 100.
///
/// On a terminal rich redraws its rows in place ten times a second: each frame begins by moving
/// back over the last one (`\r`, then `ESC [2K` and `ESC [1A` for each row above), which the
/// pipeline cuts into a line per row. Those moves are part of the drawing and consumed with it;
/// `console.print` lines between frames, and the cursor's hiding and showing, pass through.
/// rich shows the cursor again (`ESC [?25h`) when the display stops: tasks that reached their
/// total end then, and a later display's tasks are new activities even with the same
/// descriptions. Into a pipe rich draws nothing while it runs and prints the last frame when it
/// stops (nothing at all with `transient=True`), so there the tasks begin and end at once.
///
/// A task that reached its total is complete; one that stopped short ends as the exit status
/// says, with a Python traceback's exception as its error. Read from a screen, where the
/// cursor's showing is not seen, a task ends as a success as soon as its row shows it at its
/// total; the frames that still draw it are consumed with it.
struct RichAdapter: ToolAdapter {
    /// Counts the displays that stopped: part of each task's key.
    private var display = 0
    /// How many rows of each description the current frame drew so far: a second task with the
    /// same description is a second activity.
    private var frameRows: [String: Int] = [:]
    /// The last line was a row, so the next row continues its frame.
    private var inFrame = false
    /// The keys of the current display's tasks.
    private var tasks: Set<String> = []
    private var traceback = PythonTraceback()
    /// The last line read was a final row of a screen.
    private var afterFinalRow = false
    /// The keys of the tasks that ended when a screen's row showed them at their total.
    private var ended: Set<String> = []

    /// Bounds the state whatever the input.
    private static let maxTasks = 64

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        let text = line.text
        // Read from a screen, rows that became final come top first, as the frame they were.
        let final = line.row?.isFinal == true
        defer { afterFinalRow = final }
        let startsFrame = RedrawnLine.startsFrame(line) || (final && !afterFinalRow)
        if let row = RichRow(text, bare: inFrame || startsFrame) {
            // Into a pipe rich prints a display's rows, without colours, only once it stopped.
            let stopped = !line.isOverwritten && !line.bytes.contains(0x1B)
            return read(row, startsFrame: startsFrame, stopped: stopped, onScreen: line.row != nil, &activities)
        }
        inFrame = false
        guard RedrawnLine.isControlOnly(line) else {
            traceback.read(text, &activities)
            return false
        }
        if RedrawnLine.contains(line, "\u{1B}[?25h") {
            displayStopped(&activities)
            return false
        }
        // What is left of a frame: the moves back over the rows, consumed with them.
        return !tasks.isEmpty && !RedrawnLine.contains(line, "\u{1B}[?25l")
    }

    private mutating func read(
        _ row: RichRow, startsFrame: Bool, stopped: Bool, onScreen: Bool, _ activities: inout AdaptedActivities
    ) -> Bool {
        if startsFrame || !inFrame { frameRows.removeAll(keepingCapacity: true) }
        let name = row.description ?? ""
        let index = frameRows[name, default: 0]
        let key = "rich \(display):\(index):\(name)"
        guard tasks.contains(key) || (tasks.count < Self.maxTasks && frameRows.count < Self.maxTasks) else {
            return false
        }
        inFrame = true
        frameRows[name] = index + 1
        tasks.insert(key)
        let complete = row.total.map { total in row.completed.map { $0 >= total } ?? false } ?? false
        // A task that ended at its total is drawn so until its display stops; below its total,
        // the row is a later display's task.
        if ended.contains(key) {
            guard !complete else { return true }
            ended.remove(key)
        }
        activities.update(
            key, title: row.description ?? "Progress", unit: row.unit, completed: row.completed, total: row.total)
        if complete, onScreen, ended.count < Self.maxTasks {
            activities.succeed(key)
            ended.insert(key)
        } else if complete {
            activities.markComplete(key)
        } else if row.total == nil && stopped {
            activities.markProbablyComplete(key)
        }
        return true
    }

    /// The display stopped: its finished tasks end now; the others wait for the exit status, and
    /// one without a total may be done (its display stops the same when it is), so without an
    /// exit status it is a success.
    private mutating func displayStopped(_ activities: inout AdaptedActivities) {
        guard !tasks.isEmpty else { return }
        for key in activities.openKeys where tasks.contains(key) {
            if let total = activities.total(key), let completed = activities.completed(key), completed >= total {
                activities.succeed(key)
            } else if activities.total(key) == nil {
                activities.markProbablyComplete(key)
            }
        }
        tasks.removeAll()
        ended.removeAll()
        frameRows.removeAll()
        inFrame = false
        display += 1
    }
}
