/// One task's row of a rich `Progress` display, its colours removed:
/// `Downloading ━━━━━━━━━━╸━━━━━━━━━  45% 0:00:03`. The bar (`━`, with `╸` or `╺` at its edge; in
/// a pipe, without colour, only the done part is drawn and the rest is spaces) is what makes a row;
/// the columns before it are the description (after a spinner, when there is one), and the ones
/// after it are read for what they count: `45%` or `45.3%` (TaskProgressColumn), `7/10` or `7/?`
/// (MofNCompleteColumn), `1.2/5.0 MB` (DownloadColumn). Speeds (`4.9 MB/s`, `?`), times
/// (`0:00:03`, `-:--:--`) and separators (`•`) are recognized and ignored; other text columns are
/// ignored too, but a row needs at least one column rich draws after its bar.
struct RichRow: Equatable {
    /// The description column, `nil` when the row has none (`track(…, description="")`).
    var description: String?
    /// The amount done: the count, the bytes, or the percentage when the row shows only that.
    var completed: Double?
    /// The total: `nil` when unknown (`7/?`, a pulsing bar).
    var total: Double?
    /// `bytes` for DownloadColumn, `%` for a percentage alone, `nil` for a count.
    var unit: String?

    /// - Parameters:
    ///   - line: the row's text.
    ///   - bare: whether a bar with nothing after it is a row: a task without a total pulses
    ///     before its speed is known, which only the place of the line shows (where a frame
    ///     begins, or after a row).
    init?(_ line: String, bare: Bool = false) {
        let characters = Array(line)
        guard let barStart = characters.firstIndex(where: Self.isBarGlyph) else { return nil }
        let barEnd = characters[barStart...].firstIndex { !Self.isBarGlyph($0) } ?? characters.endIndex
        // rich's table pads its columns with one space: a bar glued to other text is not one.
        guard barStart == 0 || characters[barStart - 1] == " ",
            barEnd == characters.endIndex || characters[barEnd] == " "
        else { return nil }
        let tail = String(characters[barEnd...])[...].words
        guard let columns = Columns(tail) ?? (bare && tail.isEmpty && barEnd - barStart >= 10 ? Columns() : nil)
        else { return nil }
        description = Self.description(String(characters[..<barStart])[...])
        if let download = columns.download {
            (completed, total, unit) = (download.completed, download.total, "bytes")
        } else if let count = columns.count {
            (completed, total, unit) = (count.completed, count.total, nil)
        } else if let percent = columns.percent {
            (completed, total, unit) = (percent, 100, "%")
        }
    }

    /// The description, without the spinner that may come first (rich's default `dots` spinner
    /// draws braille patterns; finished, it draws a space).
    private static func description(_ head: Substring) -> String? {
        var words = head.trimmingSpaces
        if let first = words.first, first.unicodeScalars.allSatisfy({ (0x2800...0x28FF).contains($0.value) }),
            words.dropFirst().first == " " || words.count == 1
        {
            words = words.dropFirst().trimmingSpaces
        }
        return words.isEmpty ? nil : String(words)
    }

    private static func isBarGlyph(_ character: Character) -> Bool {
        character == "━" || character == "╸" || character == "╺"
    }

    /// What the columns after the bar say.
    private struct Columns {
        var percent: Double?
        var count: (completed: Double, total: Double?)?
        var download: (completed: Double, total: Double?)?

        init() {}

        init?(_ words: [Substring]) {
            var recognized = 0
            var index = 0
            while index < words.count {
                let word = words[index]
                let next = index + 1 < words.count ? words[index + 1] : nil
                index += 1
                if let next, let unit = RichRow.sizeUnits[String(next)], let pair = RichRow.pair(word, unit) {
                    download = pair
                    index += 1
                } else if let next, next.hasSuffix("/s"), RichRow.number(word) != nil {
                    index += 1  // a speed: `4.9 MB/s`, `12.3 it/s`
                } else if word.hasSuffix("%"), let value = RichRow.number(word.dropLast()), value <= 100 {
                    percent = value
                } else if let pair = RichRow.pair(word, 1), pair.completed.rounded() == pair.completed {
                    count = pair
                } else if !(word == "?" || word == "•" || RichRow.isTime(word)) {
                    continue
                }
                recognized += 1
            }
            guard recognized > 0 else { return nil }
        }
    }

    /// DownloadColumn's suffixes: powers of 1000, or of 1024 with `binary_units=True`.
    private static let sizeUnits: [String: Double] = [
        "bytes": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15,
        "KiB": 1024, "MiB": 1_048_576, "GiB": 1_073_741_824, "TiB": 1_099_511_627_776,
    ]

    /// `7/10`, `7/?`, `1.2/5.0` (in `scale`s): the amount done and the total.
    private static func pair(_ word: Substring, _ scale: Double) -> (completed: Double, total: Double?)? {
        let parts = word.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let completed = number(parts[0]) else { return nil }
        if parts[1] == "?" { return ((completed * scale).rounded(), nil) }
        guard let total = number(parts[1]) else { return nil }
        return ((completed * scale).rounded(), (total * scale).rounded())
    }

    /// `45`, `45.3`, `1,234.5` (rich groups thousands with commas, in every locale).
    private static func number(_ text: Substring) -> Double? {
        guard !text.hasPrefix(","), !text.contains(",.") else { return nil }
        return NumberText.decimal(text.filter { $0 != "," }[...])
    }

    /// `0:00:03` and `-:--:--` (TimeRemainingColumn, TimeElapsedColumn), `00:03` and `--:--`
    /// (compact).
    private static func isTime(_ word: Substring) -> Bool {
        if word == "-:--:--" || word == "--:--" { return true }
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        return (2...3).contains(parts.count)
            && parts.allSatisfy { (1...2).contains($0.count) && $0.allSatisfy(NumberText.isDigit) }
    }
}
