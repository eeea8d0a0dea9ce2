/// pip's progress, one activity per file, in bytes, titled from the `Downloading NAME (SIZE)`
/// line before it (which passes through; a URL is shortened to its file name):
///
/// - its default bar, drawn by rich on a terminal (redrawn in place) and once, finished, in a
///   pipe: `━━━━━━━━╸━━━━━━━ 1.2/3.0 MB 1.6 MB/s eta 0:00:02` (``RichRow``), in pip's rounded
///   megabytes; the bar that reaches its size completes the file;
/// - `--progress-bar raw` (pip 24.1 or later): `Progress 262144 of 3001097` lines.
///
/// `ERROR: …` is a failure with that message.
struct PipAdapter: ToolAdapter {
    private static let key = "download"
    private var title = "Downloading"
    /// The file's bar reached its size: the frames pip draws after it are the same bar.
    private var finished = false

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        let text = Substring(line.text).trimmingSpaces
        if text.hasPrefix("ERROR: ") {
            activities.fail(nil, error: String(text))
            return false
        }
        let words = text.words
        if words.count == 4, words[0] == "Downloading", words[2].hasPrefix("("), words[3].hasSuffix(")") {
            if activities.isOpen(Self.key) { activities.succeed(Self.key) }
            title = "Downloading " + (words[1].split(separator: "/").last ?? words[1])
            finished = false
            return false
        }
        if words.count == 4, words[0] == "Progress", words[2] == "of", let done = NumberText.integer(words[1]),
            let total = NumberText.integer(words[3])
        {
            return update(done: done, total: total > 0 ? total : nil, &activities)
        }
        guard let row = RichRow(line.text), row.unit == "bytes", row.description == nil, let done = row.completed
        else { return false }
        return update(done: done, total: row.total, &activities)
    }

    private mutating func update(done: Double, total: Double?, _ activities: inout AdaptedActivities) -> Bool {
        guard !finished else { return true }
        activities.update(Self.key, title: title, unit: "bytes", completed: done, total: total)
        if let total, done >= total {
            activities.succeed(Self.key)
            title = "Downloading"
            finished = true
        }
        return true
    }
}
