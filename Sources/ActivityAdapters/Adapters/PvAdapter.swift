/// pv's numeric output (`-n`): one number per line, the percentage (`pv -n`, with `-t` the elapsed
/// seconds first), or with ``bytes`` the byte count (`pv -n -b`, `pv -n -t -b`). Both `1.5` and
/// `1,5` are read. `100` (or the total given with `-s`) completes the activity. pv prints no
/// completion of its own, and stops as quietly when it is interrupted (exit status 32), so
/// otherwise the exit status decides; without one the end of its output completes it. `pv: …`
/// is an error.
struct PvAdapter: ToolAdapter {
    /// Whether the numbers are bytes (`-b`) rather than percentages.
    var bytes: Bool
    /// The size pv was told (`-s SIZE`), when counting bytes.
    var total: Double?
    private static let key = "transfer"
    private var seen = false
    /// The last number was 100 % or the total.
    private var reachedEnd = false

    init(bytes: Bool, total: Double? = nil) {
        self.bytes = bytes
        self.total = total
    }

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        let text = Substring(line.text)
        if text.hasPrefix("pv: ") {
            activities.fail(nil, error: String(text))
            return false
        }
        let fields = text.trimmingSpaces.words
        guard fields.count == 1 || fields.count == 2, let value = NumberText.integer(fields[fields.count - 1]),
            fields.count == 1 || NumberText.decimal(fields[0]) != nil
        else { return false }
        if bytes {
            activities.update(Self.key, title: "Transferring", unit: "bytes", completed: value, total: total)
            reachedEnd = total.map { value >= $0 } ?? false
        } else {
            guard value <= 100 else { return false }
            activities.update(Self.key, title: "Transferring", unit: "%", completed: value, total: 100)
            reachedEnd = value == 100
        }
        seen = true
        return true
    }

    mutating func inputEnded(_ activities: inout AdaptedActivities) {
        if reachedEnd {
            activities.markComplete(Self.key)
        } else if seen {
            activities.markProbablyComplete(Self.key)
        }
    }
}
