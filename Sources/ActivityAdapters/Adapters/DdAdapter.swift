/// dd's `status=progress`: `8454144 bytes (8.5 MB, 8.1 MiB) copied, 1 s, 7.8 MB/s`, read by its
/// shape (a byte count, a word, a parenthesis), so translated words are read too. The summary dd
/// prints after `records out` completes the activity and passes through; `dd: …` is an error.
///
/// dd writes `\r` before each update, so a line ends only when the next one starts; an update is
/// taken as soon as it ends with its rate (`… MB/s`), the last of its columns.
struct DdAdapter: ToolAdapter {
    private static let key = "copy"
    /// The next byte-count line is dd's summary (it comes after the two `records` lines).
    private var recordLines = 0

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        let text = Substring(line.text)
        if text.hasPrefix("dd: ") {
            activities.fail(nil, error: String(text))
            return false
        }
        let words = text.trimmingSpaces.words
        if words.count >= 3, let first = words.first, first.contains("+"),
            first.split(separator: "+").allSatisfy({ NumberText.integer($0) != nil })
        {
            recordLines += 1
            return false
        }
        guard let count = Self.copied(words) else { return false }
        activities.update(Self.key, title: "Copying", unit: "bytes", completed: count)
        if recordLines >= 2 {
            activities.markComplete(Self.key)
            recordLines = 0
            return false
        }
        return true
    }

    mutating func readUnfinished(_ line: AdapterLine, _ activities: inout AdaptedActivities) {
        let words = Substring(line.text).trimmingSpaces.words
        guard let rate = words.last, rate.hasSuffix("/s"), let count = Self.copied(words) else { return }
        activities.update(Self.key, title: "Copying", unit: "bytes", completed: count)
    }

    /// The byte count of a line shaped `N bytes (…) copied, …`, translated or not.
    static func copied(_ words: [Substring]) -> Double? {
        guard words.count >= 4, words[2].hasPrefix("(") else { return nil }
        return NumberText.integer(words[0])
    }
}
