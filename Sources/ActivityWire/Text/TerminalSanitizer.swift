/// Makes untrusted text safe to show in a terminal or write to a log: the one sanitizer.
///
/// Producers are not trusted: a title could hold `ESC ] 0 ;` (set the window title), `ESC [ 2 J`
/// (clear the screen), a carriage return followed by `✔ Done` (a forged status line), a C1
/// control that some terminals obey, or a right-to-left override that makes the text after it
/// read backwards (Trojan Source, CVE-2021-42574). The sanitizer removes:
///
/// - every C0 control, DEL and every C1 control (U+0080–U+009F), with the escape sequences they
///   start; tabs, newlines, carriage returns and the line and paragraph separators become one
///   space each, so a field always stays on its line;
/// - the bidirectional controls: embeddings and overrides (U+202A–U+202E), isolates
///   (U+2066–U+2069) and the marks U+200E, U+200F, U+061C;
/// - invisible characters that can hide or disguise text: zero-width space and non-joiner
///   (U+200B, U+200C), the word joiner and invisible operators (U+2060–U+2064), the deprecated
///   format characters (U+206A–U+206F), the byte order mark (U+FEFF), the soft hyphen, the
///   Mongolian vowel separator, the Hangul fillers, the interlinear annotation characters, and
///   the tag characters (U+E0000–U+E007F, so subdivision flags show as a plain black flag);
/// - the zero-width joiner (U+200D), except between two emoji, where it joins them into one
///   (`👨‍👩‍👧`) and can neither hide nor reorder text.
///
/// Variation selectors stay: they only choose a glyph (`❤️`).
///
/// ```swift
/// TerminalSanitizer.display("\u{1B}[2Jhello\nworld")   // "hello world"
/// TerminalSanitizer.escaped("\u{1B}[2Jhello\u{202E}")  // "\\x1b[2Jhello\\u{202e}"
/// ```
package enum TerminalSanitizer {
    /// What happens to one scalar.
    package enum Action: Sendable {
        /// Shown as it is.
        case keep
        /// Shown as one space: a line break or a tab.
        case space
        /// Not shown.
        case drop
        /// A zero-width joiner: kept only between two emoji.
        case joiner
    }

    /// `text` with escape sequences, controls and dangerous invisible characters removed and line
    /// breaks turned into spaces: for a terminal. A whole sequence goes, not just its ESC:
    /// `ESC [ 31 m` (CSI, also as the C1 byte U+009B), `ESC ] … BEL` or `ESC ] … ESC \\` (OSC, DCS,
    /// APC, PM, SOS strings) and two-character `ESC X` sequences.
    package static func display(_ text: String) -> String { display(text, keepingTabs: false) }

    /// ``display(_:)``, with tabs kept when `keepingTabs` (a passed-through line's own columns).
    static func display(_ text: String, keepingTabs: Bool) -> String {
        if isClean(text) { return text }
        if let spaced = text.utf8.withContiguousStorageIfAvailable({ spacedOnly($0, keepingTabs: keepingTabs) }),
            let spaced
        {
            return spaced
        }
        var result = ScalarBytes(capacity: text.utf8.count)
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
                case .space: result.append(keepingTabs && scalar == "\t" ? scalar : " ")
                case .drop: continue
                case .joiner:
                    guard let following = next() else { continue }
                    if joinsEmoji(after: result.last, before: following) { result.append(scalar) }
                    pending = following
                }
            }
        }
        return String(decoding: result.bytes, as: UTF8.self)
    }

    /// Text that is clean but for its tabs and line breaks (a compiler's message with a tab in
    /// it): the same bytes with each of them a space (a tab kept when `keepingTabs`), found from
    /// the bytes instead of scalar by scalar; `nil` for text with anything else to change.
    private static func spacedOnly(_ bytes: UnsafeBufferPointer<UInt8>, keepingTabs: Bool) -> String? {
        var result: [UInt8]?
        var start = 0
        for index in bytes.indices {
            let byte = bytes[index]
            guard byte == 0x09 || byte == 0x0A || byte == 0x0D else { continue }
            // A byte below 0x80 stands alone in UTF-8: the bytes before it are whole scalars.
            guard holdsOnlyShownBytes(UnsafeBufferPointer(rebasing: bytes[start..<index])) else { return nil }
            if result == nil { result = Array(bytes) }
            if !(keepingTabs && byte == 0x09) { result![index] = 0x20 }
            start = index + 1
        }
        guard let result, holdsOnlyShownBytes(UnsafeBufferPointer(rebasing: bytes[start...])) else { return nil }
        return String(decoding: result, as: UTF8.self)
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

    /// `text` with controls and the removed invisible characters written as visible escapes
    /// (`\x1b`, `\u{202e}`) and line breaks as `\n`, `\r`, `\t`: for a log file, where what
    /// arrived should still be readable.
    package static func escaped(_ text: String) -> String {
        if isClean(text) { return text }
        var result = ""
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch classify(scalar) {
            case .keep:
                result.unicodeScalars.append(scalar)
                continue
            case .joiner:
                let following = index + 1 < scalars.count ? scalars[index + 1] : nil
                if let following, joinsEmoji(after: index > 0 ? scalars[index - 1] : nil, before: following) {
                    result.unicodeScalars.append(scalar)
                    continue
                }
            case .space, .drop: break
            }
            result += escape(scalar)
        }
        return result
    }

    /// One scalar as an escape: `\n`, `\r`, `\t`, `\x1b` below U+0100, `\u{202e}` above.
    package static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            let hex = String(scalar.value, radix: 16)
            return scalar.value < 0x100 ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{\(hex)}"
        }
    }

    /// Raw bytes of a passed-through line made safe for a terminal: invalid UTF-8 becomes U+FFFD,
    /// then ``display(_:)`` applies, except that a tab becomes the spaces to the next multiple of
    /// 8 columns, as a terminal shows it, so that tab-separated columns stay aligned.
    package static func display(bytes: some Collection<UInt8>) -> [UInt8] {
        expandingTabs(displayKeepingTabs(bytes: bytes))
    }

    /// ``display(bytes:)`` with the tabs left in: for a line sanitized in pieces, whose tabs are
    /// expanded once it is whole.
    package static func displayKeepingTabs(bytes: some Collection<UInt8>) -> [UInt8] {
        let printable = bytes.withContiguousStorageIfAvailable { buffer in
            !buffer.contains { $0 < 0x20 || $0 >= 0x7F }
        }
        if printable ?? !bytes.contains(where: { $0 < 0x20 || $0 >= 0x7F }) { return Array(bytes) }
        let array = Array(bytes)
        if let text = String(validating: array, as: UTF8.self), isClean(text) { return array }
        return Array(display(String(decoding: array, as: UTF8.self), keepingTabs: true).utf8)
    }

    /// A sanitized line (colour sequences allowed) with each tab replaced by spaces up to the next
    /// multiple of 8 columns, counting display widths and not the colour sequences.
    package static func expandingTabs(_ line: [UInt8]) -> [UInt8] {
        guard line.contains(0x09) else { return line }
        var result: [UInt8] = []
        result.reserveCapacity(line.count + 16)
        var column = 0
        var inColourSequence = false
        for character in String(decoding: line, as: UTF8.self) {
            if inColourSequence {
                inColourSequence = character != "m"
            } else if character == "\u{1B}" {
                inColourSequence = true
            } else if character == "\t" {
                let spaces = 8 - column % 8
                result.append(contentsOf: repeatElement(UInt8(ascii: " "), count: spaces))
                column += spaces
                continue
            } else {
                column += DisplayWidth.of(character)
            }
            result.append(contentsOf: character.utf8)
        }
        return result
    }

    /// `text` with every character that is not printable ASCII replaced by `?`: for a terminal
    /// whose locale is not UTF-8. Apply it after ``display(_:)``.
    package static func ascii(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F ? $0 : "?" }))
    }

    /// What the sanitizer does with `scalar` on its own.
    @inline(__always)
    package static func classify(_ scalar: Unicode.Scalar) -> Action {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return .keep }
        switch value {
        case 0x09, 0x0A, 0x0D, 0x2028, 0x2029: return .space
        case 0x00...0x1F, 0x7F...0x9F: return .drop
        case 0xAD, 0x061C, 0x115F, 0x1160, 0x180E, 0x200B, 0x200C, 0x200E, 0x200F, 0x202A...0x202E,
            0x2060...0x206F, 0x3164, 0xFEFF, 0xFFA0, 0xFFF9...0xFFFB, 0x1BCA0...0x1BCA3, 0x1D173...0x1D17A,
            0xE0000...0xE007F:
            return .drop
        case 0x200D: return .joiner
        default: return .keep
        }
    }

    /// Whether a zero-width joiner between `previous` and `next` joins two emoji: an emoji (or
    /// its variation selector or skin tone) before, an emoji after.
    package static func joinsEmoji(after previous: Unicode.Scalar?, before next: Unicode.Scalar) -> Bool {
        guard let previous, UnicodeTables.contains(UnicodeTables.extendedPictographic, next.value) else {
            return false
        }
        let value = previous.value
        return value == 0xFE0F || (0x1F3FB...0x1F3FF).contains(value)
            || UnicodeTables.contains(UnicodeTables.extendedPictographic, value)
    }

    /// A fast check: printable ASCII, or nothing but scalars that are shown as they are.
    @inline(__always)
    static func isClean(_ text: String) -> Bool {
        if text.utf8.withContiguousStorageIfAvailable(holdsOnlyShownBytes) == true { return true }
        var previous: Unicode.Scalar? = nil
        var joined: Unicode.Scalar?? = nil  // set after a joiner: the scalar before it
        for scalar in text.unicodeScalars {
            if let before = joined {
                guard joinsEmoji(after: before, before: scalar) else { return false }
                joined = nil
            }
            switch classify(scalar) {
            case .keep: break
            case .space, .drop: return false
            case .joiner: joined = .some(previous)
            }
            previous = scalar
        }
        return joined == nil
    }
}

extension TerminalSanitizer {
    /// Whether these UTF-8 bytes (valid, as a `String`'s are) hold only scalars that are shown as
    /// they are, told from the bytes: `false` when they hold a control, or a lead byte whose
    /// scalars include one that ``classify(_:)`` does not keep (then the scalars decide). A
    /// message with a dash or quotes in it (`passe 3 — «optimisation» ✓`) is then checked at
    /// the speed of ASCII, not scalar by scalar.
    @inline(__always)
    static func holdsOnlyShownBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                guard byte >= 0x20 && byte != 0x7F else { return false }
                index &+= 1
                continue
            }
            // A valid lead byte: its continuation bytes follow.
            let second = index &+ 1 < count ? bytes[index &+ 1] : 0
            switch byte {
            case 0xC2:
                // U+0080–U+009F (C1 controls) and U+00AD (soft hyphen).
                guard second > 0x9F && second != 0xAD else { return false }
                index &+= 2
            case 0xC3...0xDF:
                // U+061C, the Arabic letter mark.
                guard byte != 0xD8 || second != 0x9C else { return false }
                index &+= 2
            case 0xE0...0xEF:
                // Leads whose blocks hold none: U+0800–U+0FFF, U+4000–U+DFFF (CJK, Hangul
                // syllables), U+E000–U+EFFF; and U+2xxx outside U+2000–U+207F (dashes, quotes and
                // marks are U+2010–U+205F: only the controls and invisibles are looked at).
                switch byte {
                case 0xE0, 0xE4...0xEE: break
                case 0xE2:
                    let third = index &+ 2 < count ? bytes[index &+ 2] : 0
                    if second == 0x80 {
                        // U+200B–U+200F, U+2028–U+202E.
                        guard !(0x8B...0x8F).contains(third) && !(0xA8...0xAE).contains(third) else { return false }
                    } else if second == 0x81 {
                        // U+2060–U+206F.
                        guard !(0xA0...0xAF).contains(third) else { return false }
                    }
                default: return false
                }
                index &+= 3
            case 0xF0...0xF4:
                // U+1BCA0–U+1BCA3 (F0 9B), U+1D173–U+1D17A (F0 9D), the tags U+E0000–U+E007F (F3 A0).
                guard !(byte == 0xF0 && (second == 0x9B || second == 0x9D)) && !(byte == 0xF3 && second == 0xA0)
                else { return false }
                index &+= 4
            default:
                return false
            }
        }
        return true
    }
}

/// What the sanitizer keeps, as UTF-8 bytes: appending to a `String.UnicodeScalarView` one
/// scalar at a time costs several times more, and most kept scalars are ASCII.
private struct ScalarBytes {
    private(set) var bytes: [UInt8] = []
    /// The scalar appended last (a joiner is kept only after an emoji).
    private(set) var last: Unicode.Scalar?

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    @inline(__always)
    mutating func append(_ scalar: Unicode.Scalar) {
        last = scalar
        if scalar.isASCII {
            bytes.append(UInt8(truncatingIfNeeded: scalar.value))
        } else {
            UTF8.encode(scalar) { bytes.append($0) }
        }
    }
}
