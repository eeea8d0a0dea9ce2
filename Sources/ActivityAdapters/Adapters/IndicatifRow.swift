/// One bar of indicatif (Rust), its colours removed, as its default style and the usual templates
/// draw it: `███████░░░░░░░ 7/10` (`{wide_bar} {pos}/{len}`), `⠁ [00:00:01] [####>-----] 3/30 msg`
/// (`{spinner} [{elapsed_precise}] [{bar:40.cyan/blue}] {pos}/{len} {msg}`), and
/// `[####>---] 1.20 MiB/5.00 MiB (1s)` (`{bytes}/{total_bytes}`). A row is a bar (a run of block
/// glyphs, `█░` by default, or `[…]` drawn with at most three symbols, `#>-`), then its count:
/// `{pos}/{len}` (`{human_pos}/{human_len}` with thousands separators), or bytes in indicatif's
/// units (`KiB`, `MiB`; `kB`, `MB` for `decimal_bytes`). The words after the count, but an ETA
/// (`(3s)`), are the message; the words before the bar, but the spinner and the elapsed time,
/// are its prefix.
struct IndicatifRow: Equatable {
    /// The text before the bar (`{prefix}`), `nil` when there is none.
    var prefix: String?
    var completed: Double
    var total: Double
    /// `bytes` for byte counts, `nil` for a count.
    var unit: String?
    /// The text after the count (`{msg}`), `nil` when there is none.
    var message: String?

    init?(_ line: String) {
        let words = Substring(Self.closingGaps(line)).words
        guard let bar = words.firstIndex(where: Self.isBar) else { return nil }
        var index = bar + 1
        guard index < words.count else { return nil }
        if let count = Self.count(words[index]) {
            (completed, total, unit) = (count.completed, count.total, nil)
            index += 1
        } else if index + 2 < words.count, let bytes = Self.bytes(words[index], words[index + 1], words[index + 2]) {
            (completed, total, unit) = (bytes.completed, bytes.total, "bytes")
            index += 3
        } else {
            return nil
        }
        let message = words[index...].filter { !Self.isTime($0) }.joined(separator: " ")
        self.message = message.isEmpty ? nil : message
        let head = words[..<bar].drop { Self.isSpinner($0) || Self.isElapsed($0) }
        prefix = head.isEmpty ? nil : head.joined(separator: " ")
    }

    /// `███░░░` (block elements, `▏`…`▉` for a partial cell), or `[###>----]`: at least 5 cells
    /// of glyphs, 10 of symbols (`[===] 1/2 passed` is a log line, not a bar).
    private static func isBar(_ word: Substring) -> Bool {
        if word.count >= 5, word.unicodeScalars.allSatisfy({ (0x2580...0x259F).contains($0.value) }) { return true }
        guard word.count >= 12, word.hasPrefix("["), word.hasSuffix("]") else { return false }
        let body = word.dropFirst().dropLast()
        return Set(body).count <= 3 && body.allSatisfy { !$0.isLetter && !$0.isNumber && !$0.isWhitespace }
    }

    /// The line with the spaces of a bracketed bar drawn with a space (`progress_chars("=> ")`:
    /// `[=====>      ]`) made visible, so that the bar is one word.
    private static func closingGaps(_ line: String) -> String {
        guard line.contains("[ ") || line.contains(" ]") || line.contains("  ") else { return line }
        var characters = Array(line)
        var index = 0
        while let open = characters[index...].firstIndex(of: "["),
            let close = characters[(open + 1)...].firstIndex(of: "]")
        {
            let body = characters[(open + 1)..<close]
            if body.count >= 10, body.contains(" "), Set(body).count <= 3,
                body.allSatisfy({ !$0.isLetter && !$0.isNumber })
            {
                for gap in body.indices where characters[gap] == " " { characters[gap] = Self.gap }
            }
            index = close + 1
        }
        return String(characters)
    }

    /// What stands for a space inside a bar: visible, so never a word's end.
    private static let gap: Character = "\u{2423}"

    /// `7/10`, `1,234/5,000`.
    private static func count(_ word: Substring) -> (completed: Double, total: Double)? {
        let parts = word.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let completed = NumberText.groupedInteger(parts[0]),
            let total = NumberText.groupedInteger(parts[1])
        else { return nil }
        return (completed, total)
    }

    /// `1.20` `MiB/5.00` `MiB`: `{bytes}/{total_bytes}` as it splits into words.
    private static func bytes(
        _ first: Substring, _ middle: Substring, _ last: Substring
    ) -> (completed: Double, total: Double)? {
        let parts = middle.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, units.contains(parts[0]), units.contains(last),
            let completed = NumberText.size(first + " " + parts[0]), let total = NumberText.size(parts[1] + " " + last)
        else { return nil }
        return (completed, total)
    }

    /// HumanBytes and DecimalBytes units.
    private static let units: Set<Substring> = ["B", "KiB", "MiB", "GiB", "TiB", "kB", "MB", "GB", "TB"]

    /// indicatif's default spinner draws braille patterns, and a space when finished.
    private static func isSpinner(_ word: Substring) -> Bool {
        word.count == 1 && word.unicodeScalars.allSatisfy { (0x2800...0x28FF).contains($0.value) }
    }

    /// `[00:00:01]` (`{elapsed_precise}` in brackets, as indicatif's examples draw it).
    private static func isElapsed(_ word: Substring) -> Bool {
        word.hasPrefix("[") && word.hasSuffix("]") && word.count == 10
            && word.dropFirst().dropLast().allSatisfy { NumberText.isDigit($0) || $0 == ":" }
    }

    /// An ETA in parentheses, as indicatif's examples draw `({eta})`: `(3s)`, `(1m)`.
    private static func isTime(_ word: Substring) -> Bool {
        guard word.hasPrefix("("), word.hasSuffix(")") else { return false }
        let text = word.dropFirst().dropLast()
        guard let last = text.last, "smhd".contains(last) else { return false }
        return text.count > 1 && text.dropLast().allSatisfy(NumberText.isDigit)
    }
}
