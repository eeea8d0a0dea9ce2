/// wget's progress: the bar (`--progress=bar`, `bar:force`) and the dot styles (`dot`, the
/// default without a terminal, `dot:binary`, `dot:mega`, `dot:giga`). One activity per URL, begun at the
/// `--DATE TIME--  URL` line, in bytes, its total from the `Length:` line (read by its shape, so
/// `Länge:` too), exact at the end from `saved [N/M]`. `ERROR N: …` and `failed: …` end it as a
/// failure. Those lines still pass through; only the bar and dot lines are consumed, and the
/// blank line wget writes after the last of them.
struct WgetAdapter: ToolAdapter {
    private static let key = "download"
    /// Bytes per dot, learnt from the dot lines' layout.
    private var dotBytes: Double?
    /// The last line was the end of a bar or of the dots: wget follows it with a blank line.
    private var progressEnded = false

    mutating func readEmptyLine(_ activities: inout AdaptedActivities) -> Bool {
        defer { progressEnded = false }
        return progressEnded
    }

    /// The bar read as overwritten was the finished one (its `\n` came as `\r\n`, cut by a read).
    mutating func readNewline(ending line: AdapterLine, _ activities: inout AdaptedActivities) {
        _ = read(line, &activities)
    }

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        progressEnded = false
        let text = Substring(line.text)
        if text.hasPrefix("--"), let url = Self.startedURL(text) {
            if activities.isOpen(Self.key) { activities.succeed(Self.key) }
            activities.update(Self.key, title: "Downloading", unit: "bytes", message: String(url))
            return false
        }
        if let total = Self.lengthLine(text) {
            activities.update(Self.key, title: "Downloading", unit: "bytes", total: total)
            return false
        }
        if let (error, saved) = Self.dated(text) {
            if let saved {
                activities.update(Self.key, title: "Downloading", completed: saved.completed, total: saved.total)
                activities.succeed(Self.key)
            } else if let error {
                activities.fail(activities.isOpen(Self.key) ? Self.key : nil, error: error)
            }
            return false
        }
        if let failed = text.firstRange(of: " failed: ") {
            activities.fail(
                activities.isOpen(Self.key) ? Self.key : nil, error: String(text[failed.lowerBound...].dropFirst()))
            return false
        }
        if let completed = bar(text) {
            let total = activities.total(Self.key)
            activities.update(Self.key, title: "Downloading", unit: "bytes", completed: completed)
            if !line.isOverwritten {
                if let total { activities.update(Self.key, title: "Downloading", completed: total) }
                activities.markComplete(Self.key)
                progressEnded = true
            }
            return true
        }
        if let (completed, percent) = dots(text) {
            activities.update(Self.key, title: "Downloading", unit: "bytes", completed: completed)
            if percent == 100, let total = activities.total(Self.key) {
                activities.update(Self.key, title: "Downloading", completed: total)
                activities.markComplete(Self.key)
                progressEnded = true
            }
            return true
        }
        return false
    }

    /// wget writes `\r` before each bar, so a bar ends only when the next one starts; it is taken
    /// as soon as a word follows its size (the rate), when the size can no longer be cut short
    /// (`1.2` of `1.26M`).
    mutating func readUnfinished(_ line: AdapterLine, _ activities: inout AdaptedActivities) {
        let text = Substring(line.text)
        guard let close = text.lastIndex(of: "]"), text[text.index(after: close)...].words.count >= 2,
            let completed = bar(text)
        else { return }
        activities.update(Self.key, title: "Downloading", unit: "bytes", completed: completed)
    }

    /// `--2026-11-30 13:57:38--  http://…`
    static func startedURL(_ text: Substring) -> Substring? {
        let parts = text.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 12, text.dropFirst(2).first.map(NumberText.isDigit) == true,
            let end = text.firstRange(of: "--  ")
        else { return nil }
        let url = text[end.upperBound...]
        return url.contains("://") ? url : nil
    }

    /// `Length: 3000000 (2.9M) [application/octet-stream]`, `Länge: 3000000 (2,9M) […]`.
    static func lengthLine(_ text: Substring) -> Double? {
        guard let colon = text.firstRange(of: ": ") else { return nil }
        let label = text[..<colon.lowerBound]
        let words = text[colon.upperBound...].words
        guard !label.isEmpty, label.count <= 24, label.allSatisfy(\.isLetter), words.count >= 2,
            let total = NumberText.groupedInteger(words[0]), words[1].hasPrefix("("), words[1].hasSuffix(")")
        else { return nil }
        return total
    }

    /// The lines wget starts with a date: an error (`… ERROR 404: Not Found.`) or the end of a
    /// download (`… - '/dev/null' saved [3000000/3000000]`).
    static func dated(_ text: Substring) -> (error: String?, saved: (completed: Double, total: Double?)?)? {
        let words = text.words
        guard words.count >= 4, words[0].count == 10, words[0].allSatisfy({ NumberText.isDigit($0) || $0 == "-" }),
            words[1].count == 8, words[1].allSatisfy({ NumberText.isDigit($0) || $0 == ":" })
        else { return nil }
        if let last = words.last, last.hasPrefix("["), last.hasSuffix("]") {
            let numbers = last.dropFirst().dropLast().split(separator: "/")
            if let completed = numbers.first.flatMap(NumberText.integer) {
                let total = numbers.count == 2 ? NumberText.integer(numbers[1]) : nil
                return (nil, (completed, total))
            }
        }
        if words[3].hasSuffix(":"), words[3].count == 4, NumberText.integer(words[3].dropLast()) != nil {
            return (String(text[words[2].startIndex...]), nil)
        }
        return nil
    }

    /// `/dev/null   43%[=======>       ]   1.26M  1015KB/s    eta 2s` or, with no total,
    /// `name     [   <=>    ]  1.26M  1015KB/s`: the bytes so far.
    func bar(_ text: Substring) -> Double? {
        guard let open = text.lastIndex(of: "["), let close = text.lastIndex(of: "]"), open < close else { return nil }
        let inside = text[text.index(after: open)..<close]
        guard inside.allSatisfy({ $0 == "=" || $0 == ">" || $0 == " " || $0 == "<" || $0 == "-" }),
            let size = text[text.index(after: close)...].words.first
        else { return nil }
        return NumberText.size(size)
    }

    /// `   150K .......... .......... .......... .......... .......... 13% 1.62M 1s`: the bytes
    /// at the end of the line, and the percent when shown.
    mutating func dots(_ text: Substring) -> (Double, Double?)? {
        let words = text.words
        guard let offsetWord = words.first, offsetWord.hasSuffix("K"),
            let offset = NumberText.integer(offsetWord.dropLast()), words.count >= 2
        else { return nil }
        let clusters = words.dropFirst().prefix { $0.allSatisfy { $0 == "." } }
        guard !clusters.isEmpty else { return nil }
        let rest = words.dropFirst(1 + clusters.count)
        var percent: Double?
        if let first = rest.first {
            guard first.hasSuffix("%"), let value = NumberText.integer(first.dropLast()) else { return nil }
            percent = value
        }
        if let style = dotStyle(text, clusters: clusters, percentShown: percent != nil) { dotBytes = style }
        guard let dotBytes else { return nil }
        let dots = Double(clusters.reduce(0) { $0 + $1.count })
        return (offset * 1024 + dots * dotBytes, percent)
    }

    /// Bytes per dot of the style a dot line shows: 1 KiB (`dot`, 10 dots a cluster, 50 a line),
    /// 8 KiB (`binary`, 16 and 48), 64 KiB (`mega`, 8 and 48), 1 MiB (`giga`, 8 and 32). wget
    /// pads a short last line to the full width when a percent follows, so the width from the
    /// first dot to the `%` tells the style on any such line, even a download shorter than one
    /// cluster. Without a percent (no total) a full first cluster tells `dot` and `binary`, and
    /// more than four clusters of 8 tell `mega`; four of 8 may be `giga` or a short `mega` line.
    func dotStyle(_ text: Substring, clusters: some Collection<Substring>, percentShown: Bool) -> Double? {
        if percentShown, let firstDot = text.firstIndex(of: "."), let percent = text.firstIndex(of: "%") {
            switch text.distance(from: firstDot, to: percent) {
            case 57: return 1024
            case 53: return 8192
            case 56: return 65536
            case 38: return 1_048_576
            default: break
            }
        }
        guard dotBytes == nil else { return nil }
        switch (clusters.first?.count, clusters.count) {
        case (10, _): return 1024
        case (16, _): return 8192
        case (8, 5...): return 65536
        default: return nil
        }
    }
}
