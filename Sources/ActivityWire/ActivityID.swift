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
        guard Self.isValid(rawValue.utf8) else { return nil }
        self.rawValue = rawValue
    }

    /// Creates an id the caller has already validated.
    package init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static func < (lhs: ActivityID, rhs: ActivityID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether `bytes` form a valid id.
    public static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        guard WireLimits.idLength.contains(bytes.count) else { return false }
        return bytes.allSatisfy(isIDByte)
    }

    @inline(__always)
    static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "@"),
            UInt8(ascii: "/"), UInt8(ascii: "+"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
