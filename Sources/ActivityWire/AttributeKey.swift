/// A key of an event's `attrs` object.
///
/// Keys are equal only when their bytes (code points) are, as JSON compares object keys, and
/// sort by their bytes. A `String` key would not do: `String` compares up to Unicode canonical
/// equivalence, so `x-é` written precomposed (U+00E9) and decomposed (`e`, U+0301) would be one
/// key, and one of two values on the wire would be lost.
///
/// ```swift
/// let key: AttributeKey = "x-shard"
/// ```
public struct AttributeKey: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The key as it appears on the wire.
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static func == (lhs: AttributeKey, rhs: AttributeKey) -> Bool {
        lhs.rawValue.utf8.elementsEqual(rhs.rawValue.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        var bytes = rawValue
        bytes.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(rawValue.utf8.count)  // so a key is never a prefix of another in the hash
    }

    /// Byte order, which is code point order: what the canonical encoder sorts by.
    public static func < (lhs: AttributeKey, rhs: AttributeKey) -> Bool {
        lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }
}
