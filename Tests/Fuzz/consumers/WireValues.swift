/// Values the spec allows, spelled as JSON, with the edges where consumers broke before: counts
/// and `ts` up to 2^53 (Schemas/README.md §2-§3), numbers spelled with exponents and fractions,
/// text in every script a terminal measures differently, escapes that decode to U+FFFD.
enum WireValues {
    static let maxCount = 9_007_199_254_740_992.0  // 2^53

    /// Counts at the edges: zero, tiny, around 2^31, 2^32, 2^52 and 2^53.
    static let edgeCounts: [String] = [
        "0", "-0", "1", "2", "0.5", "1e-300", "5e-324", "1e-7", "0.1", "99", "100", "1000", "1023", "1024",
        "1048576", "2147483647", "2147483648", "4294967295", "4294967296", "1e15", "4503599627370496",
        "4503599627370496.5", "9007199254740991", "9007199254740992", "9.007199254740992e15", "9007199254740992.0",
        "1E+2", "1.5e3", "123456789.123456789",
    ]

    /// A count in 0...2^53: an edge, or a value spread over every magnitude.
    static func count(_ choices: inout Choices) -> String {
        switch choices.below(4) {
        case 0: return choices.pick(edgeCounts)
        case 1: return String(choices.below(1000))
        case 2: return number(maxCount * choices.unit())
        default:
            // Every magnitude from 1e-12 to 2^53 alike.
            let exponent = -12 + choices.unit() * 27.95
            return number(min(maxCount, pow10(exponent)))
        }
    }

    /// A double written as JSON (Swift's shortest form, which JSON reads back exactly).
    static func number(_ value: Double) -> String { value.description }

    /// 10^x without Foundation.
    static func pow10(_ exponent: Double) -> Double {
        var result = 1.0
        var remaining = exponent
        while remaining >= 1 {
            result *= 10
            remaining -= 1
        }
        while remaining < 0 {
            result /= 10
            remaining += 1
        }
        // 10^f for f in [0, 1): e^(f ln 10) by its series, exact enough for spreading values.
        let x = remaining * 2.302_585_092_994_046
        var term = 1.0
        var sum = 1.0
        for n in 1..<30 {
            term *= x / Double(n)
            sum += term
        }
        return result * sum
    }

    /// Pieces of titles and messages: scripts of every width, marks that combine, emoji sequences,
    /// the 95 Hangul leading jamo, right-to-left text, escapes for controls and lone surrogates (both
    /// become something safe), and long runs.
    static let textPieces: [String] = [
        "Compile", "Build", "Test", "Download", "a", "", " ", "main.c", "src/very/deep/path/file.swift",
        "日本語のタイトル", "漢字", "한국어", "\u{1100}\u{1161}\u{11A8}", "\u{1100}\u{1101}\u{1102}\u{115F}",
        "\u{1100}\u{1100}\u{1100}\u{1100}\u{1100}\u{1100}", "e\u{301}\u{302}\u{303}", "\u{0301}", "👍🏽", "👨‍👩‍👧‍👦",
        "🇫🇷🇩🇪", "🏳️‍🌈", "\u{200B}\u{200D}\u{2060}", "\u{FEFF}", "مرحبا", "שלום", "\u{202E}reversed",
        "\u{2066}isolate\u{2069}", "Ａｂｃ", "ｶﾀｶﾅ", "\u{0E01}\u{0E31}\u{0E49}", "\u{0915}\u{094D}\u{0937}",
        "\u{FFFD}", "\u{10FFFF}", "\u{E000}", "…", "✔", "▶", "%", "%d", "%s%n", "\\", "\"", "<script>", "&amp;",
        "]]>", "</svg>", "{{x}}", "\t", "a\nb", "\r", "x\r\ny",
    ]

    /// Escapes only JSON can carry: controls, lone surrogates, a pair.
    static let escapes: [String] = [
        "\\u0000", "\\u001b[2J", "\\u001b]0;t\\u0007", "\\u009b31m", "\\u007f", "\\uDADA", "\\uD800", "\\uDFFF",
        "\\uD83D\\uDE00", "\\u2028", "\\u0085", "\\b\\f", "\\/",
    ]

    /// A JSON string literal (quotes included).
    static func text(_ choices: inout Choices, maxPieces: Int = 6) -> String {
        var body = ""
        let pieces = choices.below(maxPieces + 1)
        for _ in 0..<pieces {
            switch choices.below(8) {
            case 0: body += choices.pick(escapes)
            case 1:
                let piece = escaped(choices.pick(textPieces))
                body += String(repeating: piece, count: 1 + choices.below(choices.oneIn(8) ? 400 : 4))
            default: body += escaped(choices.pick(textPieces))
            }
        }
        return "\"" + body + "\""
    }

    /// `text` escaped as JSON requires.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
