/// pv's progress, in both of its forms.
///
/// Its display (``PvFrame``): the default one, on a terminal or with `-f` into a pipe, and `-F`
/// formats of the same fields. With the percentage (pv knows the size: a file, or `-s`) the
/// activity counts percent to 100, the byte count and rate as its message; without it, it counts
/// pv's byte count, which pv rounds to three digits (`19.1MiB`), against `-s` when given.
/// Each `-N NAME` is its own activity.
///
/// Its numeric output (`-n`): one number per line, the percentage (`pv -n`, with `-t` the elapsed
/// seconds first), or with ``bytes`` the byte count (`pv -n -b`, `pv -n -t -b`). Both `1.5` and
/// `1,5` are read.
///
/// `100` % (or the total given with `-s`) completes the activity. pv prints no completion of its
/// own, and stops as quietly when it is interrupted (exit status 32), so otherwise the exit status
/// decides; without one the end of its output completes it. `pv: …` is an error.
struct PvAdapter: ToolAdapter {
    /// Whether the numbers are bytes (`-b`) rather than percentages.
    var bytes: Bool
    /// The size pv was told (`-s SIZE`), when counting bytes.
    var total: Double?
    private static let key = "transfer"
    /// The activities seen, and whether each one's last number was 100 % or the total.
    private var reachedEnd: [String: Bool] = [:]

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
        if let frame = PvFrame(line.text) { return read(frame, &activities) }
        let fields = text.trimmingSpaces.words
        guard fields.count == 1 || fields.count == 2, let value = NumberText.integer(fields[fields.count - 1]),
            fields.count == 1 || NumberText.decimal(fields[0]) != nil
        else { return false }
        if bytes {
            activities.update(Self.key, title: "Transferring", unit: "bytes", completed: value, total: total)
            reachedEnd[Self.key] = total.map { value >= $0 } ?? false
        } else {
            guard value <= 100 else { return false }
            activities.update(Self.key, title: "Transferring", unit: "%", completed: value, total: 100)
            reachedEnd[Self.key] = value == 100
        }
        return true
    }

    private mutating func read(_ frame: PvFrame, _ activities: inout AdaptedActivities) -> Bool {
        let key = frame.name.map { Self.key + ":" + $0 } ?? Self.key
        // Bounded whatever the input: pv draws one display per `-N` name.
        guard reachedEnd[key] != nil || reachedEnd.count < AdaptedActivities.maxOpen else { return false }
        let title = frame.name.map { "Transferring " + $0 } ?? "Transferring"
        let rate = frame.rate.map { "at " + $0 }
        if let percent = frame.percent {
            let amount = [frame.bytesText, rate].compactMap { $0 }.joined(separator: " ")
            let message = [amount.isEmpty ? nil : amount, frame.eta].compactMap { $0 }.joined(separator: ", ")
            activities.update(
                key, title: title, unit: "%", completed: percent, total: 100, message: message.isEmpty ? nil : message)
            reachedEnd[key] = percent == 100
        } else {
            activities.update(key, title: title, unit: "bytes", completed: frame.bytes, total: total, message: rate)
            reachedEnd[key] = total.map { (frame.bytes ?? 0) >= $0 } ?? false
        }
        return true
    }

    mutating func inputEnded(_ activities: inout AdaptedActivities) {
        for (key, end) in reachedEnd {
            if end { activities.markComplete(key) } else { activities.markProbablyComplete(key) }
        }
    }
}
