/// A JSON document as a tree, for the formats other tools write (ansible's jsonl callback,
/// BuildKit's rawjson, Terraform's `-json`, ...): those are read field by field by name, where
/// the event decoder's scanner reads our own protocol in place.
///
/// ```swift
/// let value = JSONValue.parse(Array(#"{"status":"Pulling","id":"a1"}"#.utf8))
/// value?["status"]?.string  // "Pulling"
/// ```
package enum JSONValue: Equatable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// Members in the order written; a repeated key's first value wins on lookup.
    case object([(key: String, value: JSONValue)])

    /// The document in `bytes` (one value, white space around it allowed), or `nil` when it is
    /// not valid UTF-8 JSON or nests deeper than the scanner allows.
    package static func parse(_ bytes: some Collection<UInt8>) -> JSONValue? {
        Array(bytes).withUnsafeBufferPointer { buffer -> JSONValue? in
            guard UTF8Validation.isValid(buffer) else { return nil }
            var scanner = JSONScanner(buffer)
            guard let value = try? build(&scanner, depth: 0) else { return nil }
            scanner.skipWhitespace()
            return scanner.atEnd ? value : nil
        }
    }

    /// The member `key` of an object; `nil` for a missing key or another kind of value.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    package var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    package var number: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    package var bool: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    package var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    package var members: [(key: String, value: JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    private static func build(_ scanner: inout JSONScanner, depth: Int) throws(JSONScanner.SyntaxError) -> JSONValue {
        guard depth < JSONScanner.maxDepth else { throw scanner.fail("nested too deeply") }
        scanner.skipWhitespace()
        guard !scanner.atEnd else { throw scanner.fail("unexpected end of line, expected a value") }
        switch scanner.bytes[scanner.index] {
        case UInt8(ascii: "{"):
            scanner.index += 1
            var members: [(key: String, value: JSONValue)] = []
            if scanner.consume(UInt8(ascii: "}")) { return .object(members) }
            repeat {
                scanner.skipWhitespace()
                guard !scanner.atEnd, scanner.bytes[scanner.index] == UInt8(ascii: "\"") else {
                    throw scanner.fail("expected a key")
                }
                let key = try scanner.scanString()
                try scanner.expect(UInt8(ascii: ":"), "':'")
                let value = try build(&scanner, depth: depth + 1)
                members.append((scanner.decodeString(key.range, escaped: key.escaped), value))
            } while scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "}"), "',' or '}'")
            return .object(members)
        case UInt8(ascii: "["):
            scanner.index += 1
            var elements: [JSONValue] = []
            if scanner.consume(UInt8(ascii: "]")) { return .array(elements) }
            repeat {
                elements.append(try build(&scanner, depth: depth + 1))
            } while scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "]"), "',' or ']'")
            return .array(elements)
        default:
            switch try scanner.value(depth: depth) {
            case .string(let range, let escaped): return .string(scanner.decodeString(range, escaped: escaped))
            case .number(let range): return .number(scanner.decodeNumber(range))
            case .bool(let flag): return .bool(flag)
            case .null: return .null
            case .object, .array: throw scanner.fail("unexpected character")
            }
        }
    }
}
