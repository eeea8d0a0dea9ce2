/// The identifier of one activity on the wire.
///
/// An id is 1 to 128 bytes of `[A-Za-z0-9._:@/+-]`. Producers make ids unique without
/// coordination, with a random per-process prefix and a counter (`3f9c2a71d04be815.12`).
///
/// ```swift
/// let id = ActivityID("build.compile")!   // nil for an id the protocol forbids
/// ```
public struct ActivityID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The id as it appears on the wire.
    public let rawValue: String

    /// Creates an id, or returns `nil` when `rawValue` is empty, longer than 128 bytes, or holds a
    /// character outside `[A-Za-z0-9._:@/+-]`.
    public init?(_ rawValue: String) {
        var rawValue = rawValue
        guard rawValue.withUTF8(Self.isValid) else { return nil }
        self.rawValue = rawValue
    }

    /// Creates an id the caller has already validated.
    package init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// 64 random bits as 16 lowercase hex digits: the per-process prefix that keeps ids of many
    /// processes and machines apart (§4 of the protocol).
    package static func randomPrefix() -> String {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    public static func < (lhs: ActivityID, rhs: ActivityID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether `bytes` form a valid id.
    public static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        if let result = bytes.withContiguousStorageIfAvailable(isValid) { return result }
        return isValid(Array(bytes))
    }

    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard WireLimits.idLength.contains(bytes.count) else { return false }
        for byte in bytes where !isIDByte(byte) { return false }
        return true
    }

    /// The end of the run of id bytes in `bytes` from `start`: eight bytes at a time while eight
    /// remain, then one at a time. The same bytes as ``isIDByte(_:)`` tells apart.
    @inline(__always)
    static func endOfIDBytes(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while bytes.count &- index >= 8 {
            let word = UInt64(
                littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
            let count = idByteCount(word)
            index &+= count
            if count < 8 { return index }
        }
        while index < bytes.count, isIDByte(bytes[index]) { index &+= 1 }
        return index
    }

    /// How many of the eight bytes of `word`, first byte lowest, are id bytes before the first
    /// that is not. Each byte is tested without carries into its neighbours while it is below
    /// 0x80; a byte from 0x80 up is never an id byte, and what its carries spoil lies after it.
    @inline(__always)
    private static func idByteCount(_ word: UInt64) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        // The high bit of each byte set when the byte lies in lower...upper.
        func within(_ lower: UInt64, _ upper: UInt64) -> UInt64 {
            (word &+ (0x80 - lower) &* ones) & ~(word &+ (0x7F - upper) &* ones)
        }
        // The high bit of each byte set when the byte is `byte`.
        func equal(_ byte: UInt64) -> UInt64 {
            let difference = word ^ (byte &* ones)
            return ~(((difference & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | difference)
        }
        let valid =
            (within(0x2D, 0x3A) | within(0x40, 0x5A) | within(0x61, 0x7A) | equal(0x2B) | equal(0x5F)) & ~word
            & highBits
        return (~valid & highBits).trailingZeroBitCount >> 3
    }

    /// Whether `byte` may appear in an id: one bit per byte value, `[A-Za-z0-9._:@/+-]`.
    @inline(__always)
    static func isIDByte(_ byte: UInt8) -> Bool {
        // Bits 0x2B '+', 0x2D '-', 0x2E '.', 0x2F '/', 0x30-0x39 digits, 0x3A ':' in the low word;
        // 0x40 '@', 0x41-0x5A, 0x5F '_', 0x61-0x7A in the high word.
        let low: UInt64 = 0x07FF_E800_0000_0000
        let high: UInt64 = 0x07FF_FFFE_87FF_FFFF
        switch byte {
        case 0..<64: return (low >> UInt64(byte)) & 1 == 1
        case 64..<128: return (high >> UInt64(byte - 64)) & 1 == 1
        default: return false
        }
    }
}
