/// How many terminal columns text takes: the one measure every display uses.
///
/// Widths come from ``UnicodeTables``, generated from the `wcwidth` package's tables
/// (`Scripts/generate-width-table.py`), so they follow today's Unicode and terminals, not the C
/// library's tables and not the locale. A character is 2 columns when East Asian Wide or
/// Fullwidth (CJK, most emoji), 0 when it shows nothing of its own (combining marks, format
/// characters, joiners, variation selectors), and 1 otherwise; controls count 0 (they never
/// reach a display: ``TerminalSanitizer`` removes them).
///
/// Text is measured by grapheme cluster, as modern terminals draw it. A cluster that starts with
/// a wide character, an emoji or a regional indicator takes the width of that first character,
/// and 2 when U+FE0F asks for emoji presentation of a narrow one (`❤️`, `1️⃣`); whatever follows
/// in the cluster (skin tones, ZWJ and the emoji it joins, tags, the second flag letter) adds
/// nothing. Other clusters take the sum of their characters, a spacing mark counting one column
/// after the character it follows (`क` + `ि` is 2), and so does a run of Hangul leading jamo
/// (`ᄀᄀᄀ` is 6, as terminals draw it).
///
/// ```swift
/// DisplayWidth.of("日本")                            // 4
/// DisplayWidth.of("👨‍👩‍👧")                             // 2
/// DisplayWidth.truncate("日本語のテキスト", to: 7)   // "日本語…"
/// ```
package enum DisplayWidth {
    /// The number of columns `text` occupies.
    package static func of(_ text: some StringProtocol) -> Int {
        // Most text is printable ASCII: one column a byte, checked over the contiguous bytes.
        let simple = text.utf8.withContiguousStorageIfAvailable(simpleWidth)
        if let simple, let width = simple { return width }
        return clusterWidth(text)
    }

    /// The number of columns `text` occupies. A short string (up to 15 bytes, stored inline)
    /// has no contiguous storage to lend; `withUTF8` copies its bytes to the stack, so the
    /// rates, counts and times of a frame are measured from their bytes too.
    package static func of(_ text: String) -> Int {
        var text = text
        if let width = text.withUTF8(simpleWidth) { return width }
        return clusterWidth(text)
    }

    /// The sum of the widths of `text`'s grapheme clusters.
    private static func clusterWidth(_ text: some StringProtocol) -> Int {
        var width = 0
        for character in text { width += of(character) }
        return width
    }

    /// The width of text made only of characters that stand alone, each its own grapheme
    /// cluster (printable ASCII, `›`, `…`, `✔`, the bar and spinner glyphs, CJK): the sum of their widths, read from the bytes without forming clusters. `nil`
    /// for text with anything else (a mark, a joiner, a variation selector, a control, an emoji
    /// that a following scalar could change), which is measured cluster by cluster.
    ///
    /// Exact, not an estimate: none of these characters joins a cluster with what precedes it,
    /// and what could join one with them is not among them, so their clusters are single scalars.
    @inline(__always)
    package static func simpleWidth(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var width = 0
        guard forEachSimpleCharacter(in: bytes, { _, _, columns in width += columns }) else { return nil }
        return width
    }

    /// Calls `body` with the byte offset, byte length and width of each character of text that
    /// ``simpleWidth(_:)`` measures (each its own grapheme cluster, one scalar), in order;
    /// `false`, having stopped, at the first byte of anything else. Inlinable: a renderer that
    /// lays out a long line calls `body` for each character, and a call each cost more than the
    /// rest of its work.
    @inlinable @inline(__always)
    package static func forEachSimpleCharacter(
        in bytes: UnsafeBufferPointer<UInt8>, _ body: (_ offset: Int, _ length: Int, _ width: Int) -> Void
    ) -> Bool {
        var i = 0
        let count = bytes.count
        while i < count {
            let lead = bytes[i]
            if lead < 0x80 {
                guard lead >= 0x20 && lead < 0x7F else { return false }
                body(i, 1, 1)
                i += 1
                continue
            }
            // Native strings hold valid UTF-8: the lead byte says how many continuation bytes follow.
            let value: UInt32
            let length: Int
            if lead < 0xE0 {
                guard i + 1 < count else { return false }
                value = UInt32(lead & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
                length = 2
            } else if lead < 0xF0 {
                guard i + 2 < count else { return false }
                value = UInt32(lead & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                length = 3
            } else {
                return false  // beyond the Basic Multilingual Plane: emoji and rarer scripts
            }
            guard standsAlone(value) else { return false }
            body(i, length, knownWidth(value) ?? scalarWidth(Unicode.Scalar(value).unsafelyUnwrapped))
            i += length
        }
        return true
    }

    /// Whether the character is a grapheme cluster of its own whatever surrounds it, unless
    /// something after it extends it (a mark, a joiner, a selector, which do not stand alone):
    /// Latin, Greek and Cyrillic letters, punctuation, symbols, arrows, box drawing, dingbats,
    /// Braille, CJK ideographs, Hangul syllables. The combining marks for symbols (U+20D0–U+20FF)
    /// and those in CJK punctuation (U+302A–U+302F) are left out.
    @inlinable @inline(__always)
    package static func standsAlone(_ value: UInt32) -> Bool {
        switch value {
        case 0xA0...0x2FF, 0x370...0x482, 0x2010...0x2027, 0x2030...0x205E, 0x2070...0x20CF, 0x2100...0x2BFF,
            0x4E00...0x9FFF, 0xAC00...0xD7A3:
            true
        default: false
        }
    }

    /// The number of columns one grapheme cluster occupies.
    package static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
        var scalars = character.unicodeScalars.makeIterator()
        guard let base = scalars.next() else { return 0 }
        let baseWidth = scalarWidth(base)
        guard let second = scalars.next() else { return baseWidth }
        // A run of Hangul leading jamo (and the vowels and finals after it) is one cluster, but
        // terminals (tmux, xterm) and `wcwidth` give each jamo its own two columns.
        if isLeadingJamo(base.value) {
            return character.unicodeScalars.reduce(0) { $0 + scalarWidth($1) }
        }
        if baseWidth == 2 { return 2 }
        let value = base.value
        let emoji =
            UnicodeTables.contains(UnicodeTables.extendedPictographic, value) || (0x1F1E6...0x1F1FF).contains(value)
        let presentable = UnicodeTables.contains(UnicodeTables.emojiVariationWide, value)
        if presentable, second.value == 0xFE0F || character.unicodeScalars.contains("\u{FE0F}") { return 2 }
        if emoji { return baseWidth }
        // A spacing mark (the vowel sign of `कि`) is zero width alone but takes a column after
        // the character it follows, as `wcwidth.wcswidth` counts it.
        var width = baseWidth
        var afterBase = baseWidth > 0
        var next: Unicode.Scalar? = second
        while let scalar = next {
            let w = scalarWidth(scalar)
            if w > 0 {
                width += w
                afterBase = true
            } else if afterBase, UnicodeTables.contains(UnicodeTables.spacingMarks, scalar.value) {
                width += 1
                afterBase = false
            }
            next = scalars.next()
        }
        return width
    }

    /// Hangul choseong, U+1100–U+115F and U+A960–U+A97C: each wide, each drawn in its own two
    /// columns even where several make one grapheme cluster.
    @inline(__always)
    package static func isLeadingJamo(_ value: UInt32) -> Bool {
        (0x1100...0x115F).contains(value) || (0xA960...0xA97C).contains(value)
    }

    /// The columns one scalar takes on its own: 0, 1 or 2.
    package static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return 1 }
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if let known = knownWidth(value) { return known }
        if UnicodeTables.contains(UnicodeTables.zeroWidth, value) { return 0 }
        return UnicodeTables.contains(UnicodeTables.wide, value) ? 2 : 1
    }

    /// Widths that need no table: Latin, Greek and Cyrillic letters, general punctuation, box
    /// drawing, block elements and Braille (the spinner, the bar, `…` and `›` among them) are one
    /// column; the CJK ideographs and Hangul syllables two. The exhaustive test against `wcwidth`
    /// covers these ranges too.
    @inline(__always)
    @inlinable
    static func knownWidth(_ value: UInt32) -> Int? {
        switch value {
        case 0xA0...0x2FF, 0x370...0x482, 0x2010...0x2027, 0x2030...0x205E, 0x2190...0x21FF, 0x2500...0x25FC,
            0x2800...0x28FF:
            1
        case 0x4E00...0x9FFF, 0xAC00...0xD7A3: 2
        default: nil
        }
    }

    /// `text` cut so that it fits in `width` columns; when cut, it ends in `ellipsis` (left out
    /// when even the ellipsis does not fit). Never cuts inside a grapheme cluster.
    package static func truncate(_ text: String, to width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if text.utf8.count <= width, of(text) <= width { return text }
        if of(text) <= width { return text }
        let ellipsisWidth = of(ellipsis)
        let budget = ellipsisWidth <= width ? width - ellipsisWidth : width
        var result = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > budget { break }
            used += w
            result.append(character)
        }
        return ellipsisWidth <= width ? result + ellipsis : result
    }

    /// `text` followed by spaces up to `width` columns.
    package static func pad(_ text: String, to width: Int) -> String {
        let w = of(text)
        return w >= width ? text : text + String(repeating: " ", count: width - w)
    }

    /// `text` in exactly `width` columns: cut (ending in `ellipsis`) when longer, padded with
    /// spaces when shorter.
    package static func fit(_ text: String, to width: Int, ellipsis: String = "…") -> String {
        let cut = truncate(text, to: width, ellipsis: ellipsis)
        return cut + String(repeating: " ", count: max(0, width - of(cut)))
    }
}
