/// pv's numeric output (`-n`): one number per line, the percentage (`pv -n`, with `-t` the elapsed
/// seconds first), or with ``bytes`` the byte count (`pv -n -b`, `pv -n -t -b`). Both `1.5` and
/// `1,5` are read. pv prints a last line when it exits, so the end of its output completes the
/// activity; `pv: …` is an error.
struct PvAdapter: ToolAdapter {
    /// Whether the numbers are bytes (`-b`) rather than percentages.
    var bytes: Bool
    /// The size pv was told (`-s SIZE`), when counting bytes.
    var total: Double?
    private static let key = "transfer"
    private var seen = false

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
        seen = true
        if bytes {
            activities.update(Self.key, title: "Transferring", unit: "bytes", completed: value, total: total)
        } else {
            guard value <= 100 else { return false }
            activities.update(Self.key, title: "Transferring", unit: "%", completed: value, total: 100)
        }
        return true
    }

    mutating func inputEnded(_ activities: inout AdaptedActivities) {
        if seen { activities.markComplete(Self.key) }
    }
}
