/// Makes text from the wire safe to show in a terminal or write to a log.
///
/// Producers are not trusted: a title could hold `ESC ] 0 ;` (set the window title), `ESC [ 2 J`
/// (clear the screen), a carriage return followed by `✔ Done` (a forged status line), or a C1
/// control that some terminals obey. The sanitizer removes every C0 control, DEL, every C1
/// control (U+0080–U+009F) and the Unicode line and paragraph separators. Tabs, newlines and
/// carriage returns become one space each, so a field always stays on its line.
///
/// ```swift
/// TextSanitizer.display("\u{1B}[2Jhello\nworld")   // "hello world"
/// TextSanitizer.escaped("\u{1B}[2Jhello")          // "\\x1b[2Jhello"
/// ```
public enum TextSanitizer {
    /// `text` with escape sequences and controls removed and line breaks turned into spaces: for
    /// a terminal. A whole sequence goes, not just its ESC: `ESC [ 31 m` (CSI, also as the C1
    /// byte U+009B), `ESC ] … BEL` or `ESC ] … ESC \\` (OSC, DCS, APC, PM, SOS strings) and
    /// two-character `ESC X` sequences.
    public static func display(_ text: String) -> String {
        if isClean(text.utf8) { return text }
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let scalar = pending {
                pending = nil
                return scalar
            }
            return scalars.next()
        }
        while let scalar = next() {
            switch scalar.value {
            case 0x1B:
                guard let introducer = next() else { break }
                switch introducer {
                case "[": skipControlSequence(&scalars)
                case "]", "P", "_", "^", "X": skipString(&scalars)
                default:
                    // A two-character sequence; a control after ESC is handled on its own.
                    if introducer.value < 0x20 || introducer.value == 0x7F { pending = introducer }
                }
            case 0x9B: skipControlSequence(&scalars)
            case 0x9D, 0x90, 0x9F, 0x9E, 0x98: skipString(&scalars)
            default:
                switch classify(scalar) {
                case .keep: result.append(scalar)
                case .space: result.append(" ")
                case .drop: continue
                }
            }
        }
        return String(result)
    }

    /// Skips a CSI sequence's parameter and intermediate bytes and its final byte.
    private static func skipControlSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        var count = 0
        while let scalar = scalars.next(), count < 256 {
            count += 1
            if (0x40...0x7E).contains(scalar.value) || scalar.value < 0x20 { return }
        }
    }

    /// Skips a control string up to its terminator: BEL, ST (`ESC \\` or U+009C), or a line break.
    private static func skipString(_ scalars: inout String.UnicodeScalarView.Iterator) {
        var count = 0
        while let scalar = scalars.next(), count < 4096 {
            count += 1
            switch scalar.value {
            case 0x07, 0x9C, 0x0A, 0x0D: return
            case 0x1B:
                _ = scalars.next()
                return
            default: continue
            }
        }
    }

    /// `text` with controls written as visible escapes (`\x1b`, `\u{2028}`) and line breaks as
    /// `\n`, `\r`, `\t`: for a log file, where what arrived should still be readable.
    public static func escaped(_ text: String) -> String {
        if isClean(text.utf8) { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard classify(scalar) != .keep else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                let hex = String(scalar.value, radix: 16)
                result += scalar.value < 0x100 ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{\(hex)}"
            }
        }
        return result
    }

    /// Raw bytes of a passed-through line made safe for a terminal: invalid UTF-8 becomes U+FFFD,
    /// then ``display(_:)`` applies.
    public static func display(bytes: some Collection<UInt8>) -> [UInt8] {
        if isClean(bytes), String(validating: Array(bytes), as: UTF8.self) != nil { return Array(bytes) }
        return Array(display(String(decoding: Array(bytes), as: UTF8.self)).utf8)
    }

    enum Action { case keep, space, drop }

    @inline(__always)
    static func classify(_ scalar: Unicode.Scalar) -> Action {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x2028, 0x2029: .space
        case 0x00...0x1F, 0x7F...0x9F: .drop
        default: .keep
        }
    }

    /// A fast check: no byte below 0x20, no DEL, and no byte that could start a C1 control or a
    /// line separator in UTF-8 (0xC2 leads U+0080–U+00BF; 0xE2 leads U+2028).
    @inline(__always)
    static func isClean(_ bytes: some Collection<UInt8>) -> Bool {
        for byte in bytes where byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xE2 {
            return false
        }
        return true
    }
}
