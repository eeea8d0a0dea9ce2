#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal JSON tokenizer over one line of bytes, specialized for the event decoder: it
/// validates syntax, hands back the byte ranges of values, and decodes strings and numbers on
/// request. It never allocates unless a string holds escapes or a number is unusual.
struct JSONScanner {
    /// Where and why a line is not JSON. Trivially copyable (static texts only), so the typed
    /// throws on every scanning call cost nothing when nothing is thrown.
    struct SyntaxError: Error {
        var offset: Int
        var reason: StaticString
        /// What was expected instead, for ``JSONScanner/expect(_:_:)``.
        var expected: StaticString? = nil
        var atEndOfLine = false

        var message: String {
            guard let expected else { return reason.description }
            return atEndOfLine ? "unexpected end of line, expected \(expected)" : "expected \(expected)"
        }
    }

    /// A value's kind and where it stands in the line.
    enum Value {
        /// The bytes between the quotes; `escaped` when they hold a backslash.
        case string(Range<Int>, escaped: Bool)
        case number(Range<Int>)
        case bool(Bool)
        case null
        case object(Range<Int>)
        case array(Range<Int>)

        var typeName: String {
            switch self {
            case .string: "a string"
            case .number: "a number"
            case .bool: "a boolean"
            case .null: "null"
            case .object: "an object"
            case .array: "an array"
            }
        }
    }

    static let maxDepth = 100

    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    var atEnd: Bool { index >= bytes.count }

    @inline(__always)
    func fail(_ reason: StaticString) -> SyntaxError { SyntaxError(offset: index, reason: reason) }

    @inline(__always)
    mutating func skipWhitespace() {
        var i = index
        let count = bytes.count
        // Most tokens follow no whitespace, or a single space: neither takes the loop.
        guard i < count, bytes[i] <= 0x20 else { return }
        if bytes[i] == 0x20 {
            i &+= 1
            guard i < count, bytes[i] <= 0x20 else {
                index = i
                return
            }
        }
        while i < count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default:
                index = i
                return
            }
        }
        index = i
    }

    @inline(__always)
    mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func expect(_ byte: UInt8, _ what: StaticString) throws(SyntaxError) {
        guard consume(byte) else {
            throw SyntaxError(offset: index, reason: "", expected: what, atEndOfLine: atEnd)
        }
    }

    /// Scans any value and returns its kind and range.
    mutating func value(depth: Int = 0) throws(SyntaxError) -> Value {
        skipWhitespace()
        guard index < bytes.count else { throw fail("unexpected end of line, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "{"):
            let start = index
            try skipObject(depth: depth + 1)
            return .object(start..<index)
        case UInt8(ascii: "["):
            let start = index
            try skipArray(depth: depth + 1)
            return .array(start..<index)
        default:
            throw fail("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(SyntaxError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw fail("unexpected end of line") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw fail("unexpected character")
        }
        index += count
    }

    /// Scans a string, the opening quote under the cursor, as a value.
    mutating func string() throws(SyntaxError) -> Value {
        let scanned = try scanString()
        return .string(scanned.range, escaped: scanned.escaped)
    }

    /// Where a scanned string's content is (between its quotes), and whether it holds escapes.
    struct ScannedString {
        var range: Range<Int>
        var escaped: Bool
    }

    /// Scans a string, the opening quote under the cursor.
    mutating func scanString() throws(SyntaxError) -> ScannedString {
        let start = index + 1
        var i = start
        let count = bytes.count
        let base = bytes.baseAddress!  // not empty: the cursor is on the opening quote
        var escaped = false
        while true {
            // Most strings here are short keys and ids: a byte loop beats eight-byte words.
            while i < count, base[i] >= 0x20, base[i] != UInt8(ascii: "\""), base[i] != UInt8(ascii: "\\") {
                i += 1
            }
            guard i < count else {
                index = i
                throw fail("unterminated string")
            }
            let byte = base[i]
            if byte == UInt8(ascii: "\"") {
                index = i + 1
                return ScannedString(range: start..<i, escaped: escaped)
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                i += 1
                index = i
                guard i < count else { throw fail("unterminated string") }
                guard let end = Self.escapeEnd(base, at: i, count: count) else {
                    throw fail(base[i] == UInt8(ascii: "u") ? "invalid \\u escape" : "invalid escape")
                }
                i = end
                continue
            }
            index = i
            throw fail("control character in a string")
        }
    }

    /// Scans a string, the opening quote under the cursor, as ``scanString()`` does, eight bytes
    /// at a time, and checks that its bytes are UTF-8: what the fast paths read texts with, which
    /// are the only part of a line they take that may hold bytes above ASCII (so checking them
    /// checks the line). `nil` for anything ``scanString()`` refuses or bytes that are not UTF-8.
    @inline(__always)
    mutating func scanText() -> ScannedString? {
        let start = index &+ 1
        var i = start
        let count = bytes.count
        let base = bytes.baseAddress!  // not empty: the cursor is on the opening quote
        var escaped = false
        while true {
            while count &- i >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                let special = Self.specialBytes(word)
                if special == 0 {
                    i &+= 8
                    continue
                }
                i &+= special.trailingZeroBitCount >> 3
                break
            }
            while i < count, base[i] &- 0x20 < 0x60, base[i] != UInt8(ascii: "\\"), base[i] != UInt8(ascii: "\"") {
                i &+= 1
            }
            guard i < count else { return nil }
            let byte = base[i]
            if byte == UInt8(ascii: "\"") {
                index = i &+ 1
                return ScannedString(range: start..<i, escaped: escaped)
            }
            if byte >= 0x80 {
                // A scalar's continuation bytes are never a quote or a backslash: checked
                // scalar by scalar, the text is checked whole.
                guard let length = UTF8Validation.scalarLength(base + i, count &- i) else { return nil }
                i &+= length
                continue
            }
            guard byte == UInt8(ascii: "\\") else { return nil }  // a control byte
            escaped = true
            i &+= 1
            guard i < count, let end = Self.escapeEnd(base, at: i, count: count) else { return nil }
            i = end
        }
    }

    /// Where the escape whose letter is at `i` (after its backslash) ends, of the `count` bytes at
    /// `base`; `nil` when it is not one of JSON's (a `\u` needs four hex digits).
    @inline(__always)
    static func escapeEnd(_ base: UnsafePointer<UInt8>, at i: Int, count: Int) -> Int? {
        switch base[i] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return i &+ 1
        case UInt8(ascii: "u"):
            guard count &- i > 4, (1...4).allSatisfy({ hexValue(base[i &+ $0]) != nil }) else { return nil }
            return i &+ 5
        default:
            return nil
        }
    }

    /// The high bit of each byte of `word` (first byte lowest) that ends a run of plain string
    /// bytes: a quote, a backslash, a control byte or one above ASCII. A bit may be set wrongly
    /// only above one set rightly (a borrow runs upwards), so the lowest is always right.
    @inline(__always)
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        func zero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value }
        let quote = zero(word ^ (0x22 &* ones))
        let backslash = zero(word ^ (0x5C &* ones))
        let control = (word &- 0x20 &* ones) & ~word
        return (quote | backslash | control | word) & high
    }

    /// Scans a number per RFC 8259 and returns its range.
    mutating func number() throws(SyntaxError) -> Range<Int> {
        let start = index
        var i = index
        let count = bytes.count
        defer { index = i }
        func digits() {
            while i < count, Self.isDigit(bytes[i]) { i += 1 }
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < count else { throw SyntaxError(offset: i, reason: "unexpected end of line in a number") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else if Self.isDigit(bytes[i]) {
            digits()
        } else {
            throw SyntaxError(offset: i, reason: "invalid number")
        }
        if i < count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < count, Self.isDigit(bytes[i]) else { throw SyntaxError(offset: i, reason: "invalid number") }
            digits()
        }
        if i < count, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < count, Self.isDigit(bytes[i]) else { throw SyntaxError(offset: i, reason: "invalid number") }
            digits()
        }
        return start..<i
    }

    private mutating func skipObject(depth: Int) throws(SyntaxError) {
        guard depth <= Self.maxDepth else { throw fail("nested too deeply") }
        index += 1
        if consume(UInt8(ascii: "}")) { return }
        repeat {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key") }
            _ = try string()
            try expect(UInt8(ascii: ":"), "':'")
            _ = try value(depth: depth)
        } while consume(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"), "',' or '}'")
    }

    private mutating func skipArray(depth: Int) throws(SyntaxError) {
        guard depth <= Self.maxDepth else { throw fail("nested too deeply") }
        index += 1
        if consume(UInt8(ascii: "]")) { return }
        repeat {
            _ = try value(depth: depth)
        } while consume(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"), "',' or ']'")
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}

// MARK: - Decoding scanned values

extension JSONScanner {
    /// The bytes of a scanned string with its escapes resolved. The line was validated as UTF-8
    /// beforehand; a lone surrogate escape becomes U+FFFD.
    func decodeString(_ range: Range<Int>, escaped: Bool) -> String {
        guard escaped else { return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        return String(decoding: decodeBytes(range, keepingSurrogates: false), as: UTF8.self)
    }

    /// The code points of a scanned string with its escapes resolved, as UTF-8. With
    /// `keepingSurrogates`, a lone surrogate escape is written as its own three bytes (the
    /// generalized UTF-8 of WTF-8, which is not valid UTF-8), so `"\uDC00"` and `"\uDC01"` stay
    /// two different keys; without, it becomes U+FFFD.
    func decodeBytes(_ range: Range<Int>, keepingSurrogates: Bool) -> [UInt8] {
        let raw = UnsafeBufferPointer(rebasing: bytes[range])
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            let byte = raw[i]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                i += 1
                continue
            }
            let kind = raw[i + 1]
            i += 2
            switch kind {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = Self.hex4(raw, at: i)
                i += 4
                if (0xD800..<0xDC00).contains(scalar), i + 1 < raw.count, raw[i] == UInt8(ascii: "\\"),
                    raw[i + 1] == UInt8(ascii: "u")
                {
                    let low = Self.hex4(raw, at: i + 2)
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    }
                }
                if let value = Unicode.Scalar(scalar) {
                    out.append(contentsOf: UTF8.encode(value)!)
                } else if keepingSurrogates {
                    out += [
                        0xE0 | UInt8(scalar >> 12), 0x80 | UInt8((scalar >> 6) & 0x3F), 0x80 | UInt8(scalar & 0x3F),
                    ]
                } else {
                    out += [0xEF, 0xBF, 0xBD]  // U+FFFD
                }
            default: out.append(kind)  // " \ /
            }
        }
        return out
    }

    private static func hex4(_ raw: UnsafeBufferPointer<UInt8>, at i: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 4 | hexValue(raw[i + $1])! }
    }

    /// Whether the string's code points equal `name`'s (escapes resolved): byte for byte, never
    /// up to Unicode equivalence, as JSON compares keys.
    func stringEquals(_ range: Range<Int>, escaped: Bool, _ name: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        guard !escaped else { return decodeBytes(range, keepingSurrogates: true).elementsEqual(expected) }
        guard range.count == name.utf8CodeUnitCount else { return false }
        return memcmp(bytes.baseAddress! + range.lowerBound, name.utf8Start, range.count) == 0
    }

    /// The count in `range`, or `nil` when the number as written is negative or above 2^53: the
    /// digits decide, since the nearest double of `9007199254740993` is 2^53 itself.
    func decodeCount(_ range: Range<Int>) -> Double? {
        let digits = DecimalDigits(bytes, range)
        guard !digits.isNegative, !digits.exceedsMaxCount else { return nil }
        return digits.isZero ? 0 : decodeNumber(range)  // `-0` is zero, written back as `0`
    }

    static let powersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// The number in `range`, which ``number()`` validated. Numbers of at most 19 significant
    /// digits whose mantissa is exact in a double and whose decimal exponent is small are
    /// converted exactly with one multiplication or division (Clinger's fast path); the rest by
    /// the standard library's correctly rounded, locale-independent parser.
    func decodeNumber(_ range: Range<Int>) -> Double {
        var i = range.lowerBound
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        while i < range.upperBound, Self.isDigit(bytes[i]) {
            if digits < 19 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- UInt8(ascii: "0"))
                if mantissa != 0 { digits += 1 }
            } else {
                exponent += 1
                digits += 1
            }
            i += 1
        }
        if i < range.upperBound, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < range.upperBound, Self.isDigit(bytes[i]) {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- UInt8(ascii: "0"))
                    if mantissa != 0 { digits += 1 }
                    exponent -= 1
                } else {
                    digits += 1  // beyond the mantissa: not exact, leave it to the full parser
                }
                i += 1
            }
        }
        if i == range.upperBound, digits <= 19, mantissa <= 1 << 53, (-22...22).contains(exponent) {
            var value = Double(mantissa)
            value = exponent < 0 ? value / Self.powersOfTen[-exponent] : value * Self.powersOfTen[exponent]
            return negative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        return Double(text) ?? .nan  // overflow gives ±inf, which callers reject
    }
}
