extension Diagnostic {
    /// The most scalars of input a message quotes: enough to recognise a value, never a flood.
    package static let quotedScalarLimit = 40

    /// `text` in double quotes, fit to print anywhere: every printer of a diagnostic (a terminal,
    /// a log, an editor) gets the same safe text, so none of them has to sanitize it again.
    ///
    /// Control characters (C0, DEL, C1), bidirectional controls and invisible characters become
    /// `\u001B`-style escapes, `"` and `\` are escaped so the quotes stay unambiguous, and text
    /// longer than ``quotedScalarLimit`` scalars is cut and ends in `…`. The limit counts scalars,
    /// not characters: one character may hold any number of combining scalars.
    package static func quoted(_ text: some StringProtocol) -> String {
        var result = "\""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == quotedScalarLimit {
                result += "…"
                break
            }
            count += 1
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where isHidden(scalar): result += escaped(scalar)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Scalars that would act on the display instead of showing, or show as nothing.
    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // C0, DEL, C1 (ESC, CSI, OSC, ...)
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional controls
        case 0x200B...0x200D, 0x2060, 0xFEFF: true  // zero-width characters
        case 0x2028, 0x2029: true  // line and paragraph separators break lines in some viewers
        default: false
        }
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
