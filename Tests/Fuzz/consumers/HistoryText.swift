/// A history file's text (Docs/rendering.md, "History"): the header, then lines whose numbers
/// reach every edge (instant steps, 2^53 seconds, 1e300, more digits than a double holds,
/// negatives, garbage) and whose titles are among the generator's, so the displays find them.
enum HistoryText {
    static let numbers: [String] = [
        "0", "0.0001", "0.001", "0.04", "0.05", "0.049", "1", "1.5", "59.99", "130.5", "3600", "86400", "1e9",
        "4503599627370496", "9007199254740992", "9007199254740993", "1e300", "99999999999999999999", "-1", "-0",
        "1e-300", "5e-324", "1E3", "x", "", "nan", "inf", "1.7976931348623157e308",
    ]

    static func make(_ choices: inout Choices) -> [UInt8] {
        var text = choices.oneIn(16) ? "activity-history 2\n" : "activity-history 1\n"
        for _ in 0..<choices.below(40) {
            var fields = [number(&choices), number(&choices), choices.bool() ? "-" : number(&choices)]
            fields.append((0..<(1 + choices.below(7))).map { _ in number(&choices) }.joined(separator: ","))
            for _ in 0..<(choices.oneIn(8) ? 0 : 1 + choices.below(4)) {
                fields.append(escaped(choices.pick(WireValues.textPieces)))
            }
            text += fields.joined(separator: "\t")
            text += choices.oneIn(16) ? "\t\n" : "\n"
        }
        return Array(text.utf8)
    }

    static func number(_ choices: inout Choices) -> String {
        choices.bool() ? choices.pick(numbers) : WireValues.count(&choices)
    }

    /// A title as the file writes it: `\` as `\\`, a tab as `\t`.
    static func escaped(_ title: String) -> String {
        var out = ""
        for character in title.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += " "
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
