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
        guard index < bytes.count, bytes[index] != UInt8(ascii: "-"), let range = try? number() else { return nil }
        return decodeCount(range)
    }
}
