/// curl's progress meter (the default when its output is not a terminal) and its `-#` bar: one
/// activity per transfer, in bytes with the total when the server sent one. `curl: (N) …` (a
/// failed connection, `-f` and an HTTP error) ends it as a failure with that message.
///
/// curl formats its numbers itself, the same in every locale.
struct CurlAdapter: ToolAdapter {
    private static let header = "% Total    % Received % Xferd  Average Speed   Time    Time     Time  Current"
    private static let subheader = "Dload  Upload   Total   Spent    Left  Speed"
    private static let key = "transfer"
    private var finalSeen = false
    /// The bytes shown so far of this transfer: curl's rounding can print less after more.
    private var shown: Double = 0

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        let text = Substring(line.text)
        if text.hasPrefix("curl: (") {
            activities.fail(nil, error: String(text))
            return false
        }
        let trimmed = text.trimmingSpaces
        if trimmed == Self.header {
            endTransfer(&activities)
            return true
        }
        if trimmed == Self.subheader { return true }
        if let meter = Self.meter(trimmed) {
            if finalSeen { endTransfer(&activities) }
            show(meter, &activities)
            if line.terminator == UInt8(ascii: "\n") { finish(&activities) }
            return true
        }
        if let percent = Self.barPercent(trimmed) {
            if finalSeen { endTransfer(&activities) }
            activities.update(Self.key, title: "Downloading", unit: "%", completed: percent, total: 100)
            if line.terminator == UInt8(ascii: "\n") { finish(&activities) }
            return true
        }
        if Self.isIndeterminateBar(trimmed) {
            activities.update(Self.key, title: "Downloading")
            return true
        }
        return false
    }

    /// The update read as overwritten was curl's last (its `\n` came as `\r\n`, cut by a read).
    mutating func readNewline(ending line: AdapterLine, _ activities: inout AdaptedActivities) {
        _ = read(line, &activities)
    }

    /// A meter line is whole once it has its twelve columns (only the last, the current speed,
    /// which is not read, may still grow), and a `-#` line once it ends with `%`: either is shown
    /// before the next `\r` ends it.
    mutating func readUnfinished(_ line: AdapterLine, _ activities: inout AdaptedActivities) {
        guard !finalSeen else { return }
        let trimmed = Substring(line.text).trimmingSpaces
        if let meter = Self.meter(trimmed) {
            show(meter, &activities)
        } else if let percent = Self.barPercent(trimmed) {
            activities.update(Self.key, title: "Downloading", unit: "%", completed: percent, total: 100)
        }
    }

    /// curl prints its sizes rounded down to a few digits (`2929k`, ` 9.7M`), and coarser from
    /// 10000k on (`9999k` is followed by ` 9.7M`, fewer bytes): the bytes shown never go back nor
    /// pass the total, and reach it at 100 %.
    private mutating func show(_ meter: Meter, _ activities: inout AdaptedActivities) {
        let uploading = meter.received == 0 && meter.sent > 0
        var completed = max(shown, uploading ? meter.sent : meter.received)
        if let total = meter.total {
            completed = min(completed, total)
            if (uploading ? meter.sentPercent : meter.receivedPercent) == 100 { completed = total }
        }
        shown = completed
        activities.update(
            Self.key, title: uploading ? "Uploading" : "Downloading", unit: "bytes", completed: completed,
            total: meter.total)
    }

    /// curl ends a transfer's meter with a newline: whatever comes next is a new transfer or an
    /// error about this one. A last line without one was cut short (curl was interrupted).
    private mutating func finish(_ activities: inout AdaptedActivities) {
        finalSeen = true
        activities.markComplete(Self.key)
    }

    private mutating func endTransfer(_ activities: inout AdaptedActivities) {
        if activities.isOpen(Self.key) { activities.succeed(Self.key) }
        finalSeen = false
        shown = 0
    }

    struct Meter {
        var total: Double?
        var received: Double
        var sent: Double
        var receivedPercent: Double
        var sentPercent: Double
    }

    /// `  34 2929k   34 1024k    0     0  1005k      0  0:00:02  0:00:01  0:00:01 1005k`
    static func meter(_ text: Substring) -> Meter? {
        let fields = text.words
        guard fields.count == 12, let totalPercent = NumberText.integer(fields[0]),
            let total = NumberText.size(fields[1]), let receivedPercent = NumberText.integer(fields[2]),
            let received = NumberText.size(fields[3]), let sentPercent = NumberText.integer(fields[4]),
            let sent = NumberText.size(fields[5]), NumberText.size(fields[6]) != nil,
            NumberText.size(fields[7]) != nil, fields[8...10].allSatisfy(isTime), NumberText.size(fields[11]) != nil
        else { return nil }
        // Without a Content-Length curl shows the bytes so far as the total, at 100 %, and 0 % received.
        let unknown = totalPercent == 100 && receivedPercent == 0 && received > 0
        return Meter(
            total: unknown || total == 0 ? nil : total, received: received, sent: sent,
            receivedPercent: receivedPercent, sentPercent: sentPercent)
    }

    static func isTime(_ field: Substring) -> Bool {
        field == "--:--:--" || field.split(separator: ":").allSatisfy { NumberText.integer($0) != nil }
    }

    /// `######                 9.1%`
    static func barPercent(_ text: Substring) -> Double? {
        guard text.hasSuffix("%"), let space = text.lastIndex(of: " ") ?? (text.first == "#" ? nil : text.startIndex)
        else { return nil }
        let number = text[space...].dropLast().trimmingSpaces
        guard text[..<space].allSatisfy({ $0 == "#" || $0 == " " }), let percent = NumberText.decimal(number),
            percent <= 100
        else { return nil }
        return percent
    }

    /// `#=#=#`, `##-=#=-#`, `##O#-  #`: the bar when the size is unknown, a `-=O=-` that moves
    /// to and fro with four `#` over it here and there (any of its five may be covered).
    static func isIndeterminateBar(_ text: Substring) -> Bool {
        text.count >= 5 && text.contains("#") && text.contains { $0 == "=" || $0 == "-" || $0 == "O" }
            && text.allSatisfy { $0 == "#" || $0 == "=" || $0 == "-" || $0 == "O" || $0 == " " }
    }
}
