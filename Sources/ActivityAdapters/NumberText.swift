/// Reads the numbers tools print, in the C locale and in translated ones (`1,5` as well as `1.5`).
enum NumberText {
    static func isDigit(_ character: Character) -> Bool { character >= "0" && character <= "9" }

    /// A plain non-negative integer: digits only.
    static func integer(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.count <= 16, text.allSatisfy(isDigit) else { return nil }
        return Double(String(text))
    }

    /// An integer written with thousands separators (`1,234,567`, `1.234.567`, `1'234'567`).
    static func groupedInteger(_ text: Substring) -> Double? {
        guard let first = text.first, isDigit(first), let last = text.last, isDigit(last) else { return nil }
        var digits = ""
        for character in text {
            if isDigit(character) {
                digits.append(character)
            } else if character != "," && character != "." && character != "'" && character != "\u{A0}" {
                return nil
            }
        }
        return integer(digits[...])
    }

    /// A decimal number with `.` or `,` as its decimal separator (`2.9`, `2,9`, `42`).
    static func decimal(_ text: Substring) -> Double? {
        guard let first = text.first, isDigit(first), let last = text.last, isDigit(last), text.count <= 24 else {
            return nil
        }
        var separators = 0
        var normalized = ""
        for character in text {
            if isDigit(character) {
                normalized.append(character)
            } else if character == "." || character == "," {
                separators += 1
                normalized.append(".")
            } else {
                return nil
            }
        }
        guard separators <= 1 else { return nil }
        return Double(normalized)
    }

    /// A size with a unit suffix (`2929k`, `1.01M`, `264,00K`, `923.53 KiB`, `3.0 MB`, `512`,
    /// `12B`) in bytes. Single letters and `KiB`-style suffixes are powers of 1024 (curl, wget);
    /// `kB`-style suffixes are powers of 1000.
    static func size(_ text: Substring) -> Double? {
        let trimmed = text.trimmingSpaces
        let numberEnd = trimmed.firstIndex { !isDigit($0) && $0 != "." && $0 != "," } ?? trimmed.endIndex
        guard let number = decimal(trimmed[..<numberEnd]) else { return nil }
        let suffix = String(trimmed[numberEnd...].trimmingSpaces)
        let scale: Double
        switch suffix {
        case "", "B", "b", "bytes": scale = 1
        case "k", "K", "KiB", "KB": scale = 1024
        case "M", "MiB": scale = 1024 * 1024
        case "G", "GiB": scale = 1024 * 1024 * 1024
        case "T", "TiB": scale = 1024 * 1024 * 1024 * 1024
        case "kB": scale = 1000
        case "MB": scale = 1_000_000
        case "GB": scale = 1_000_000_000
        case "TB": scale = 1_000_000_000_000
        default: return nil
        }
        return (number * scale).rounded()
    }

    /// `HH:MM:SS.ss` as seconds.
    static func clockTime(_ text: Substring) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hours = integer(parts[0]), let minutes = integer(parts[1]),
            let seconds = decimal(parts[2])
        else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }
}

extension Substring {
    /// Without leading and trailing spaces.
    var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " } ?? endIndex
        let end = lastIndex { $0 != " " }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }

    /// The words between runs of spaces.
    var words: [Substring] { split(separator: " ") }
}

extension Substring {
    /// The last occurrence of `needle`, compared character by character.
    func lastRange(of needle: String) -> Range<Index>? {
        let needle = Array(needle)
        guard !needle.isEmpty, count >= needle.count else { return nil }
        var start = index(endIndex, offsetBy: -needle.count)
        while true {
            let end = index(start, offsetBy: needle.count)
            if self[start..<end].elementsEqual(needle) { return start..<end }
            if start == startIndex { return nil }
            start = index(before: start)
        }
    }
}
