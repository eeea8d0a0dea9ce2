/// rsync's `--info=progress2` line, `  1,200,000   6%   10.60MB/s    0:00:00 (xfr#4, to-chk=76/83)`:
/// one activity counted in files (checked of known, from `to-chk=R/T` or, while the incremental
/// scan still finds files and the total grows, `ir-chk=R/T`), with the bytes and rsync's percent
/// as its message. `to-chk=0/T` completes it. Thousands separators of any locale (`1,200,000`,
/// `1.200.000`) and `-h` sizes are read. `rsync error: …` is a failure, with the first `rsync: …`
/// line as its message.
struct RsyncAdapter: ToolAdapter {
    private static let key = "sync"

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        let text = Substring(line.text)
        if text.hasPrefix("rsync error: ") {
            activities.fail(nil, error: activities.failureMessage ?? String(text))
            return false
        }
        if text.hasPrefix("rsync: ") {
            activities.noteError(String(text))
            return false
        }
        let words = text.trimmingSpaces.words
        guard words.count == 4 || words.count == 6, Self.bytes(words[0]) != nil, words[1].hasSuffix("%"),
            let percent = NumberText.integer(words[1].dropLast()), words[2].hasSuffix("/s"),
            words[3].split(separator: ":").allSatisfy({ NumberText.integer($0) != nil })
        else { return false }
        var completed: Double?
        var total: Double?
        var finished = false
        if words.count == 6 {
            guard words[4].hasPrefix("(xfr#"), words[5].hasSuffix(")"), words[5].count > 8 else { return false }
            let check = words[5].dropLast()
            guard check.hasPrefix("to-chk=") || check.hasPrefix("ir-chk=") else { return false }
            let pair = check.dropFirst(7).split(separator: "/")
            guard pair.count == 2, let left = NumberText.integer(pair[0]), let all = NumberText.integer(pair[1]),
                left <= all
            else { return false }
            completed = all - left
            total = all
            finished = check.hasPrefix("to-chk=") && left == 0
        }
        let message = "\(words[0]) bytes, \(Int(percent))%"
        activities.update(
            Self.key, title: "Synchronizing", unit: "files", completed: completed, total: total, message: message)
        if finished { activities.markComplete(Self.key) }
        return true
    }

    /// `1,200,000`, `1.200.000` or, with `-h`, `1.20M`.
    static func bytes(_ word: Substring) -> Double? {
        if let last = word.last, last.isLetter { return NumberText.size(word) }
        return NumberText.groupedInteger(word)
    }
}
