#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The most frequent line of any stream, a progress event in the canonical form that the
/// reference producers write (`{"v":1,"type":"progress","ts":…,"id":"…","completed":…}`, with
/// `total` optional), decoded without the general scanner.
///
/// It accepts only that exact shape: any other key, order, spacing, escape or value sends the line
/// to the general path, which then decides exactly as it would have. So the fast path changes the
/// speed of decoding, never its result.
enum CanonicalFastPath {
    static func progress(_ bytes: UnsafeBufferPointer<UInt8>) -> LineEvent? {
        var cursor = JSONScanner(bytes)
        guard cursor.skip(#"{"v":1,"type":"progress","#) else { return nil }
        var timestamp: Double?
        if cursor.skip(#""ts":"#) {
            guard let value = cursor.count(), cursor.skip(",") else { return nil }
            timestamp = value
        }
        guard cursor.skip(#""id":""#) else { return nil }
        let idStart = cursor.index
        while cursor.index < bytes.count, ActivityID.isIDByte(bytes[cursor.index]) { cursor.index += 1 }
        let idBytes = UnsafeBufferPointer(rebasing: bytes[idStart..<cursor.index])
        guard WireLimits.idLength.contains(idBytes.count), cursor.skip(#"""#) else { return nil }
        var completed: Double?
        if cursor.skip(#","completed":"#) {
            guard let value = cursor.count() else { return nil }
            completed = value
        }
        var total: ActivityEvent.Total?
        if cursor.skip(#","total":"#) {
            if cursor.skip("null") {
                total = .indeterminate
            } else {
                guard let value = cursor.count() else { return nil }
                total = .value(value)
            }
        }
        guard cursor.skip("}"), cursor.atEnd else { return nil }
        var event = LineEvent(bytes: bytes, kind: .progress, timestamp: timestamp)
        event.id = LineEvent.Text(range: idStart..<(idStart + idBytes.count), escaped: false)
        event.completed = completed
        event.total = total
        return event
    }
}

extension JSONScanner {
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

    /// The common count, `123` or `1764417600.25`: at most 15 digits (below 2^53 whatever they
    /// say), no sign, no exponent, read in one pass. The value is what ``decodeNumber(_:)`` gives
    /// (the mantissa is exact, and one division by an exact power of ten rounds correctly); `nil`,
    /// with the cursor unmoved, for anything else, which the full path then reads.
    @inline(__always)
    mutating func shortCount() -> Double? {
        let count = bytes.count
        var i = index
        var mantissa: UInt64 = 0
        var digits = 0
        guard i < count, Self.isDigit(bytes[i]) else { return nil }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < count, Self.isDigit(bytes[i]) {
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- UInt8(ascii: "0"))
                digits += 1
                i += 1
            }
        }
        var decimals = 0
        if i < count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < count, Self.isDigit(bytes[i]) {
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- UInt8(ascii: "0"))
                i += 1
            }
            decimals = i - start
            guard decimals > 0 else { return nil }
            digits += decimals
        }
        guard digits <= 15, i == count || bytes[i] | 0x20 != UInt8(ascii: "e") else { return nil }
        index = i
        guard mantissa != 0 else { return 0 }
        return decimals == 0 ? Double(mantissa) : Double(mantissa) / Self.powersOfTen[decimals]
    }

    /// The count in `range`, a number the scanner found, when it is a short one (see
    /// ``shortCount()``); `nil` to leave it to ``decodeCount(_:)``.
    func decodeShortCount(_ range: Range<Int>) -> Double? {
        var cursor = JSONScanner(bytes, from: range.lowerBound)
        guard let value = cursor.shortCount(), cursor.index == range.upperBound else { return nil }
        return value
    }
}
