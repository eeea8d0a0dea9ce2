/// pip's `--progress-bar raw` (pip 24.1 or later): `Progress 262144 of 3001097` lines, in bytes,
/// one activity per file, titled from the `Downloading NAME (SIZE)` line before them (which passes
/// through). `ERROR: …` is a failure with that message.
struct PipAdapter: ToolAdapter {
    private static let key = "download"
    private var title = "Downloading"

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        let text = Substring(line.text).trimmingSpaces
        if text.hasPrefix("ERROR: ") {
            activities.fail(nil, error: String(text))
            return false
        }
        let words = text.words
        if words.count == 4, words[0] == "Downloading", words[2].hasPrefix("("), words[3].hasSuffix(")") {
            if activities.isOpen(Self.key) { activities.succeed(Self.key) }
            title = "Downloading " + words[1]
            return false
        }
        guard words.count == 4, words[0] == "Progress", words[2] == "of", let done = NumberText.integer(words[1]),
            let total = NumberText.integer(words[3])
        else { return false }
        activities.update(Self.key, title: title, unit: "bytes", completed: done, total: total > 0 ? total : nil)
        if total > 0 && done >= total {
            activities.succeed(Self.key)
            title = "Downloading"
        }
        return true
    }
}
