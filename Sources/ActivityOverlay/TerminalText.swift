/// Display-width arithmetic for terminal cells, without the C library: wide East Asian characters
/// and emoji take two cells, combining marks and zero-width characters none.
package enum TerminalText {
    /// The number of terminal cells `text` takes.
    package static func width(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + width($1) }
    }

    /// The number of cells one character (grapheme cluster) takes.
    package static func width(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }  // emoji presentation
        return width(first)
    }

    package static func width(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        if v < 0x300 { return 1 }
        switch v {
        case 0x300...0x36F, 0x483...0x489, 0x591...0x5BD, 0x610...0x61A, 0x64B...0x65F, 0x200B...0x200F,
            0x2028...0x202E, 0x2060...0x2064, 0x20D0...0x20FF, 0xFE00...0xFE0F, 0xFE20...0xFE2F, 0xFEFF:
            return 0
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3, 0x25FD...0x25FE,
            0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE,
            0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705,
            0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757, 0x2795...0x2797, 0x27B0, 0x27BF,
            0x2B1B...0x2B1C, 0x2B50, 0x2B55, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251,
            0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF,
            0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// `text` cut to at most `limit` cells, ending in an ellipsis when cut.
    package static func truncated(_ text: String, to limit: Int, ellipsis: String = "…") -> String {
        guard limit > 0 else { return "" }
        guard width(text) > limit else { return text }
        let room = limit - width(ellipsis)
        guard room >= 0 else { return String(repeating: ".", count: limit) }
        var result = ""
        var used = 0
        for character in text {
            let w = width(character)
            if used + w > room { break }
            result.append(character)
            used += w
        }
        return result + ellipsis
    }

    /// `text` padded with spaces to exactly `cells` cells (cut first when longer).
    package static func padded(_ text: String, to cells: Int, ellipsis: String = "…") -> String {
        let cut = truncated(text, to: cells, ellipsis: ellipsis)
        return cut + String(repeating: " ", count: max(0, cells - width(cut)))
    }

    /// `text` with every non-ASCII or control character replaced by `?`, for terminals without UTF-8.
    package static func ascii(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F ? $0 : "?" }))
    }
}
