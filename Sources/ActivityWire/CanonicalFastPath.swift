#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lines in the canonical form that the reference producers write (the SDKs, libactivity,
/// `activity emit`): `{"v":1,"type":"…","ts":…,` then each type's keys in the encoder's order
/// (``JSONWriter``), compact, decoded without the general scanner: no object scan, no key table,
/// no field dispatch.
///
/// It accepts only that exact shape: any other key, order, spacing or value (`attrs`,
/// `blocking`, a negative count, an id with an escape) sends the line to the general path, which
/// then decides exactly as it would have. So the fast path changes the speed of decoding, never
/// its result.
enum CanonicalFastPath {
    static func event(_ bytes: UnsafeBufferPointer<UInt8>) -> LineEvent? {
        var cursor = JSONScanner(bytes)
        guard cursor.skip(#"{"v":1,"type":""#) else { return nil }
        let kind: LineEvent.Kind
        if cursor.skip(#"progress""#) {
            kind = .progress
        } else if cursor.skip(#"begin""#) {
            kind = .begin
        } else if cursor.skip(#"end""#) {
            kind = .end
        } else if cursor.skip(#"log""#) {
            kind = .log
        } else {
            return nil
        }
        var timestamp: Double?
        if cursor.skip(#","ts":"#) {
            guard let value = cursor.count() else { return nil }
            timestamp = value
        }
        var event = LineEvent(bytes: bytes, kind: kind, timestamp: timestamp)
        let complete: Bool =
            switch kind {
            case .progress: cursor.progress(into: &event)
            case .begin: cursor.begin(into: &event)
            case .end: cursor.end(into: &event)
            case .log: cursor.log(into: &event)
            }
        // The general path refuses a line that is not UTF-8 before reading it; only texts can hold
        // other bytes than ASCII here, and each was checked as it was read.
        guard complete, cursor.skip("}"), cursor.atEnd else { return nil }
        return event
    }
}

extension JSONScanner {
    fileprivate mutating func progress(into event: inout LineEvent) -> Bool {
        guard skip(#","id":"#), let id = plainID(), let completed = count(after: #","completed":"#),
            let total = total(after: #","total":"#), let title = text(after: #","title":"#),
            let message = text(after: #","message":"#)
        else { return false }
        event.id = id
        event.completed = completed
        event.total = total
        event.title = title
        event.message = message
        return true
    }

    fileprivate mutating func begin(into event: inout LineEvent) -> Bool {
        guard skip(#","id":"#), let own = plainID(), let parent = id(after: #","parent":"#), skip(#","title":"#),
            let title = textValue(), let total = total(after: #","total":"#),
            let completed = count(after: #","completed":"#), let unit = text(after: #","unit":"#),
            let message = text(after: #","message":"#)
        else { return false }
        event.id = own
        event.parent = parent
        event.title = title
        event.total = total
        event.completed = completed ?? 0
        event.unit = unit
        event.message = message
        if skip(#","cancellable":true"#) { event.cancellable = true }
        return true
    }

    fileprivate mutating func end(into event: inout LineEvent) -> Bool {
        guard skip(#","id":"#), let id = plainID(), skip(#","status":""#) else { return false }
        event.id = id
        if skip(#"success""#) {
            event.status = .success
        } else if skip(#"failure""#) {
            event.status = .failure
        } else if skip(#"cancelled""#) {
            event.status = .cancelled
        } else if skip(#"skipped""#) {
            event.status = .skipped
        } else {
            return false
        }
        guard let completed = count(after: #","completed":"#), let total = total(after: #","total":"#),
            let message = text(after: #","message":"#), let error = text(after: #","error":"#)
        else { return false }
        event.completed = completed
        event.total = total
        event.message = message
        event.error = error
        return true
    }

    fileprivate mutating func log(into event: inout LineEvent) -> Bool {
        guard let id = id(after: #","id":"#), skip(#","level":""#) else { return false }
        event.id = id
        if skip(#"info""#) {
            event.level = .info
        } else if skip(#"warning""#) {
            event.level = .warning
        } else if skip(#"error""#) {
            event.level = .error
        } else if skip(#"debug""#) {
            event.level = .debug
        } else {
            return false
        }
        guard skip(#","message":"#), let message = textValue() else { return false }
        event.message = message
        return true
    }

    // An optional field: `nil` when `key` comes next with a value the fast path does not take;
    // else its value when `key` comes next, or `.some(nil)` when it does not.

    @inline(__always)
    private mutating func count(after key: StaticString) -> Double?? {
        guard skip(key) else { return .some(nil) }
        return count().map { $0 }
    }

    @inline(__always)
    private mutating func total(after key: StaticString) -> ActivityEvent.Total?? {
        guard skip(key) else { return .some(nil) }
        return totalValue().map { $0 }
    }

    @inline(__always)
    private mutating func text(after key: StaticString) -> LineEvent.Text?? {
        guard skip(key) else { return .some(nil) }
        return textValue().map { $0 }
    }

    @inline(__always)
    private mutating func id(after key: StaticString) -> LineEvent.Text?? {
        guard skip(key) else { return .some(nil) }
        return plainID().map { $0 }
    }

    /// A string under the cursor, read as the general scanner reads it (escapes checked, no raw
    /// control byte), its UTF-8 checked.
    @inline(__always)
    private mutating func textValue() -> LineEvent.Text? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let scanned = scanText() else { return nil }
        return LineEvent.Text(range: scanned.range, escaped: scanned.escaped)
    }

    /// A total: a count or `null` (indeterminate).
    @inline(__always)
    private mutating func totalValue() -> ActivityEvent.Total? {
        if skip("null") { return .indeterminate }
        return count().map { .value($0) }
    }
}

extension JSONScanner {
    /// An id under the cursor, quotes included, as both fast paths take it: only id bytes, no
    /// escape, a valid length (an id with an escape goes to the general path).
    @inline(__always)
    mutating func plainID() -> LineEvent.Text? {
        guard skip(#"""#) else { return nil }
        let start = index
        index = ActivityID.endOfIDBytes(in: bytes, from: index)
        guard WireLimits.idLength.contains(index - start), skip(#"""#) else { return nil }
        return LineEvent.Text(range: start..<(index - 1), escaped: false)
    }

    /// Consumes `text` if the bytes under the cursor are exactly it.
    @inline(__always)
    mutating func skip(_ text: StaticString) -> Bool {
        let length = text.utf8CodeUnitCount
        guard bytes.count - index >= length,
            memcmp(bytes.baseAddress! + index, text.utf8Start, length) == 0
        else { return false }
        index += length
        return true
    }

    /// A count (from 0 to 2^53 as written) under the cursor, or `nil` for anything else.
    mutating func count() -> Double? {
        if let value = shortCount() { return value }
        guard index < bytes.count, bytes[index] != UInt8(ascii: "-"), let range = try? number() else { return nil }
        return decodeCount(range)
    }

    /// The common count, `123` or `1764417600.123456`: at most 15 digits (below 2^53 whatever
    /// they say), or 16 below 2^53, no sign, no exponent, read in one pass, eight digits at a
    /// time. The value is what ``decodeNumber(_:)`` gives (the mantissa is exact, and one
    /// division by an exact power of ten rounds correctly); `nil`, with the cursor unmoved, for
    /// anything else, which the full path then reads.
    @inline(__always)
    mutating func shortCount() -> Double? {
        let count = bytes.count
        var i = index
        var mantissa: UInt64 = 0
        guard i < count, Self.isDigit(bytes[i]) else { return nil }
        var digits = 0
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            readDigits(from: &i, into: &mantissa)
            digits = i - index
        }
        var decimals = 0
        if i < count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            readDigits(from: &i, into: &mantissa)
            decimals = i - start
            guard decimals > 0 else { return nil }
            digits += decimals
        }
        // 16 digits fit when the mantissa is at most 2^53: a timestamp to the microsecond.
        guard digits <= 15 || (digits == 16 && mantissa <= 1 << 53), i == count || bytes[i] | 0x20 != UInt8(ascii: "e")
        else { return nil }
        index = i
        guard mantissa != 0 else { return 0 }
        return decimals == 0 ? Double(mantissa) : Double(mantissa) / Self.exactPowerOfTen(decimals)
    }

    /// Appends the decimal digits from `i` on to `mantissa` (wrapping past 19 digits, which
    /// callers refuse by their count) and moves `i` past them.
    @inline(__always)
    private func readDigits(from i: inout Int, into mantissa: inout UInt64) {
        while bytes.count - i >= 8 {
            let (value, count) = eightDigits(at: i)
            mantissa = mantissa &* Self.integerPowerOfTen(count) &+ value
            i += count
            if count < 8 { return }
        }
        while i < bytes.count, Self.isDigit(bytes[i]) {
            mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- UInt8(ascii: "0"))
            i += 1
        }
    }

    /// The digits that start the 8 bytes at `i`, read at once: their value and how many (0 to 8).
    @inline(__always)
    private func eightDigits(at i: Int) -> (value: UInt64, count: Int) {
        let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + i).loadUnaligned(as: UInt64.self))
        // A byte is a digit when its high nibble is 3 and stays 3 with 6 added. A carry out of a
        // byte that is not a digit can only spoil the bytes after it, which are not read.
        let high = word & 0xF0F0_F0F0_F0F0_F0F0
        let carried = (word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0
        let notDigit = (high ^ 0x3030_3030_3030_3030) | (carried ^ 0x3030_3030_3030_3030)
        let count = notDigit.trailingZeroBitCount >> 3
        guard count > 0 else { return (0, 0) }
        // The digits moved up to the top bytes with zeros below them, as leading zeros; the
        // bytes after them (a borrow may spoil those) are shifted out.
        var value = (word &- 0x3030_3030_3030_3030) << UInt64(64 - count * 8)
        // Pairs, then fours, then all eight (the first byte is the most significant digit).
        value = ((value & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) >> 8
        value = ((value & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
        value = ((value & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
        return (value, count)
    }

    /// 10^`exponent` for 0...8; a switch the compiler makes a table, with no lazy global to
    /// check.
    @inline(__always)
    private static func integerPowerOfTen(_ exponent: Int) -> UInt64 {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1000
        case 4: 10000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        default: 100_000_000
        }
    }

    /// 10^`exponent` for 1...16, exact in a `Double`.
    @inline(__always)
    private static func exactPowerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        default: 1e16
        }
    }

    /// The count in `range`, a number the scanner found, when it is a short one (see
    /// ``shortCount()``); `nil` to leave it to ``decodeCount(_:)``.
    func decodeShortCount(_ range: Range<Int>) -> Double? {
        var cursor = JSONScanner(bytes, from: range.lowerBound)
        guard let value = cursor.shortCount(), cursor.index == range.upperBound else { return nil }
        return value
    }
}
