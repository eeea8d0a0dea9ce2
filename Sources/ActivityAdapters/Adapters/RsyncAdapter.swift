/// rsync's `--info=progress2` line, `  1,200,000   6%   10.60MB/s    0:00:00 (xfr#4, to-chk=76/83)`:
/// one activity counted in files (checked of known, from `to-chk=R/T` or, while the incremental
/// scan still finds files and the total grows, `ir-chk=R/T`), with the bytes and rsync's percent
/// as its message. `to-chk=0/T` completes it. Thousands separators of any locale (`1,200,000`,
/// `1.200.000`) and `-h` sizes are read. `rsync error: …` is a failure, with the first `rsync: …`
/// line as its message.
///
/// rsync writes `\r` before each update, so a line ends only when the next one starts; an update
/// is taken as soon as it has its last column: `(xfr#N, to-chk=R/T)` or, in the middle of a file,
/// the time.
struct RsyncAdapter: ToolAdapter {
    private static let key = "sync"

    mutating func readUnfinished(_ line: AdapterLine, _ activities: inout AdaptedActivities) {
        guard let update = Self.update(Substring(line.text).trimmingSpaces.words) else { return }
        show(update, &activities)
    }

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
        guard let update = Self.update(text.trimmingSpaces.words) else { return false }
        show(update, &activities)
        return true
    }

    struct Update {
        var bytes: Substring
        var percent: Double
        /// Files checked and known, when the line has its `(xfr#N, to-chk=R/T)` column.
        var files: (checked: Double, known: Double, finished: Bool)?
    }

    /// `BYTES PCT% RATE TIME[ (xfr#N, to-chk=R/T)]`, or `nil` when the words are not that.
    static func update(_ words: [Substring]) -> Update? {
        guard words.count == 4 || words.count == 6, bytes(words[0]) != nil, words[1].hasSuffix("%"),
            let percent = NumberText.integer(words[1].dropLast()), words[2].hasSuffix("/s"),
            words[3].split(separator: ":").count == 3,
            words[3].split(separator: ":").allSatisfy({ NumberText.integer($0) != nil })
        else { return nil }
        var update = Update(bytes: words[0], percent: percent)
        if words.count == 6 {
            guard words[4].hasPrefix("(xfr#"), words[5].hasSuffix(")"), words[5].count > 8 else { return nil }
            let check = words[5].dropLast()
            guard check.hasPrefix("to-chk=") || check.hasPrefix("ir-chk=") else { return nil }
            let pair = check.dropFirst(7).split(separator: "/")
            guard pair.count == 2, let left = NumberText.integer(pair[0]), let all = NumberText.integer(pair[1]),
                left <= all
            else { return nil }
            update.files = (all - left, all, check.hasPrefix("to-chk=") && left == 0)
        }
        return update
    }

    private func show(_ update: Update, _ activities: inout AdaptedActivities) {
        activities.update(
            Self.key, title: "Synchronizing", unit: "files", completed: update.files?.checked,
            total: update.files?.known, message: "\(update.bytes) bytes, \(Int(update.percent))%")
        if update.files?.finished == true { activities.markComplete(Self.key) }
    }

    /// `1,200,000`, `1.200.000` or, with `-h`, `1.20M`.
    static func bytes(_ word: Substring) -> Double? {
        if let last = word.last, last.isLetter { return NumberText.size(word) }
        return NumberText.groupedInteger(word)
    }
}
