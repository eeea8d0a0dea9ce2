import ActivityWire

/// Text made safe for the formats the writers produce.
enum MarkupText {
    /// Escaped for HTML and XML text and attribute values.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            // Controls are not allowed in XML; a tab or newline in a title reads as a space.
            case "\t", "\n", "\r": out += " "
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value):
                out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A JSON string literal that is also safe inside an HTML `<script>` element.
    static func json(_ text: String) -> String {
        let quoted = JSONText.quoted(text)
        guard quoted.utf8.contains(UInt8(ascii: "<")) else { return quoted }
        return quoted.replacing("<", with: "\\u003c")
    }
}
