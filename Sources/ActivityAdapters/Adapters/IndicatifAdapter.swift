/// indicatif's bars (Rust), read row by row (``IndicatifRow``): each bar is an activity titled by
/// its prefix (`Progress` without one), counted in its `{pos}/{len}` or in bytes, with its `{msg}`
/// as the message. indicatif draws only on a terminal; into a pipe it draws nothing at all, so
/// there is nothing to read there.
///
/// On a terminal indicatif redraws in place, twenty times a second at most: a single bar after
/// `\r ESC [2K`, the bars of a `MultiProgress` after moving back up over all of them. indicatif's
/// bars have no names, so a bar is known by its row in the frame; a bar drawn at a row where the
/// last one had reached its total, with a lower count or another total, is the next bar: the
/// last one ends and this one begins. The moves between the rows are consumed with them;
/// `println` lines pass through.
///
/// indicatif leaves a finished (or abandoned) bar on screen without a line end, so what the
/// program prints next begins on the bar's row: that line passes through as it is. The first
/// `error: …` or `Error: …` (what `main` returning an error prints) is the failure's error; a bar
/// that reached its total is complete, and one that stopped short ends as the exit status says.
struct IndicatifAdapter: ToolAdapter {
    /// The next row's place in the current frame.
    private var row = 0
    /// The last line was a row, so the next row continues its frame.
    private var inFrame = false
    /// How many bars each row has shown: part of each bar's key.
    private var runs: [Int] = []
    /// The last row's text, which the program's next output may follow on the same line.
    private var lastRow: String?
    /// On a screen, the bar each row last showed, by the row's number: its place in its frame,
    /// its prefix and its count. The same bar read there again (its prefix, a count not gone
    /// back) is that bar, though the rows around it make another frame: the last row read alone
    /// once the cursor moved past it, or joined with the output that wrapped out of it.
    private var places: [Int: (place: Int, prefix: String?, completed: Double)] = [:]

    /// Bounds the state whatever the input.
    private static let maxRows = 32

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        let text = line.text
        if let bar = IndicatifRow(text) {
            return read(bar, text: text, startsFrame: RedrawnLine.startsFrame(line), row: line.row, &activities)
        }
        inFrame = false
        // What is left of a frame: the moves back over the rows, consumed with them.
        if RedrawnLine.isControlOnly(line) { return lastRow != nil }
        var said = Substring(text)
        if let lastRow, said.hasPrefix(lastRow) { said = said.dropFirst(lastRow.count) }
        if said.hasPrefix("error: ") || said.hasPrefix("Error: ") { activities.noteError(String(said.prefix(200))) }
        return false
    }

    private mutating func read(
        _ bar: IndicatifRow, text: String, startsFrame: Bool, row screenRow: ScreenPlace?,
        _ activities: inout AdaptedActivities
    ) -> Bool {
        if startsFrame || !inFrame { row = 0 }
        guard row < Self.maxRows else { return false }
        inFrame = true
        defer { row += 1 }
        var place = row
        if let screenRow {
            // Another bar in a known row (the bars move down a row when a line is printed above
            // them) is placed by its frame.
            if let known = places[screenRow.number], known.prefix == bar.prefix, bar.completed >= known.completed {
                place = known.place
            }
            if places.count >= Self.maxRows * 4 { places.removeAll() }
            places[screenRow.number] = (place, bar.prefix, bar.completed)
        }
        if runs.count <= place { runs += Array(repeating: 0, count: place + 1 - runs.count) }
        var key = Self.key(place, runs[place])
        if activities.isOpen(key), let total = activities.total(key), let completed = activities.completed(key),
            completed >= total, bar.completed < completed || bar.total != total
        {
            activities.succeed(key)
            runs[place] += 1
            key = Self.key(place, runs[place])
        }
        // A bar of length 0 (`ProgressBar::new(0)`) has no total to reach.
        let total = bar.total > 0 ? bar.total : nil
        activities.update(
            key, title: bar.prefix ?? "Progress", unit: bar.unit, completed: bar.completed, total: total,
            message: bar.message)
        if let total, bar.completed >= total { activities.markComplete(key) }
        lastRow = text
        return true
    }

    private static func key(_ row: Int, _ run: Int) -> String { "indicatif \(row).\(run)" }
}
