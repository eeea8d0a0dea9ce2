#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many terminal columns text takes, measured with the C library's `wcwidth`.
///
/// CJK ideographs and most emoji take two columns, combining marks none. `wcwidth` answers by
/// the `LC_CTYPE` locale, so the measurement uses a UTF-8 locale of its own (the user's when it
/// is UTF-8, else `C.UTF-8`), installed for the calling thread only with `uselocale(3)`: the
/// process's locale, and `LC_NUMERIC` in particular, are never changed. Where no UTF-8 locale
/// exists, a built-in table of wide ranges stands in.
///
/// ```swift
/// DisplayWidth.of("日本")                  // 4
/// DisplayWidth.truncate("日本語のテキスト", to: 7)  // "日本語…"
/// ```
public enum DisplayWidth {
    /// The number of columns `text` occupies.
    public static func of(_ text: String) -> Int {
        // Most text is printable ASCII: one column a byte, checked over the contiguous bytes.
        let printable = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            for byte in bytes where byte >= 0x80 || byte < 0x20 { return nil }
            return bytes.count
        }
        if let printable, let count = printable { return count }
        var ascii = true
        for byte in text.utf8 where byte >= 0x80 || byte < 0x20 {
            ascii = false
            break
        }
        if ascii { return text.utf8.count }
        var width = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value >= 0x20 && value < 0x7F {
                width += 1
            } else if let known = knownWidth(value) {
                width += known
            } else {
                return Measurer.withLocale {
                    var width = 0
                    for scalar in text.unicodeScalars { width += scalarWidth(scalar) }
                    return width
                }
            }
        }
        return width
    }

    /// The columns one scalar takes: 0, 1 or 2. Controls count 0 (they are sanitized away).
    public static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return 1 }
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if let width = knownWidth(value) { return width }
        if let width = Measurer.cWidth(value) { return width }
        return fallbackWidth(value)
    }

    /// Widths that need no lookup: Latin, Greek and Cyrillic letters, general punctuation, box
    /// drawing, block elements and Braille, which are all one column (the spinner, the bar, `…`
    /// and `›` among them).
    @inline(__always)
    static func knownWidth(_ value: UInt32) -> Int? {
        switch value {
        case 0xA0...0x2FF, 0x370...0x482, 0x2010...0x2027, 0x2030...0x205E, 0x2190...0x21FF, 0x2500...0x25FC,
            0x2800...0x28FF:
            1
        default: nil
        }
    }

    /// `text` cut so that it fits in `width` columns; when cut, it ends in `ellipsis`.
    public static func truncate(_ text: String, to width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if text.utf8.count <= width, of(text) <= width { return text }
        let total = of(text)
        if total <= width { return text }
        let ellipsisWidth = of(ellipsis)
        let budget = ellipsisWidth <= width ? width - ellipsisWidth : width
        var result = String.UnicodeScalarView()
        var used = 0
        Measurer.withLocale {
            for scalar in text.unicodeScalars {
                let w = scalarWidth(scalar)
                if used + w > budget { break }
                used += w
                result.append(scalar)
            }
        }
        // A zero-width joiner or variation selector dangling at the cut would join the ellipsis.
        while let last = result.last, last.value == 0x200D || (0xFE00...0xFE0F).contains(last.value) {
            result.removeLast()
        }
        return ellipsisWidth <= width ? String(result) + ellipsis : String(result)
    }

    /// `text` followed by spaces up to `width` columns.
    public static func pad(_ text: String, to width: Int) -> String {
        let w = of(text)
        return w >= width ? text : text + String(repeating: " ", count: width - w)
    }

    /// East Asian wide and emoji ranges, for a C library without a UTF-8 locale.
    static func fallbackWidth(_ value: UInt32) -> Int {
        switch value {
        case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F, 0x20D0...0x20FF: 0
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            2
        default: 1
        }
    }
}

/// Owns the UTF-8 locale that `wcwidth` runs under.
enum Measurer {
    /// A `locale_t` for `LC_CTYPE` in UTF-8, made once; `nil` when the system has none.
    nonisolated(unsafe) static let locale: locale_t? = {
        #if canImport(Glibc) || canImport(Musl)
            for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] {
                if let made = newlocale(LC_CTYPE_MASK, name, nil) { return made }
            }
            return nil
        #else
            return newlocale(LC_CTYPE_MASK, "en_US.UTF-8", nil)
        #endif
    }()

    /// The C library's `wcwidth`, looked up at run time: the Glibc module map hides `<wchar.h>`'s
    /// X/Open functions from Swift.
    static let wcwidthFunction: (@convention(c) (wchar_t) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wcwidth") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (wchar_t) -> Int32).self)
    }()

    /// Runs `body` with the UTF-8 locale installed for this thread.
    static func withLocale<T>(_ body: () -> T) -> T {
        guard let locale else { return body() }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        return body()
    }

    /// `wcwidth(value)` when the UTF-8 locale is in place and knows the character.
    @inline(__always)
    static func cWidth(_ value: UInt32) -> Int? {
        guard locale != nil else { return nil }
        guard let function = wcwidthFunction else { return nil }
        let width = function(wchar_t(bitPattern: value))
        if width < 0 { return value >= 0x1F000 ? 2 : nil }
        return Int(width)
    }
}
