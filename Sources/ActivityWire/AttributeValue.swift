/// A value in an event's `attrs` object: a string, a number or a boolean.
///
/// `attrs` carries extensions. Keys are 1 to 64 bytes and prefixed `x-` or written in
/// reverse-DNS form (`com.example.shard`); at most 32 keys per event.
public enum AttributeValue: Hashable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
}

extension AttributeValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
