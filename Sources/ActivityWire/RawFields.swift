/// The keys of protocol v1 that the decoder looks at.
enum FieldName: Int, CaseIterable {
    case v, type, ts, id, parent, title, total, completed, unit, message, cancellable, blocking, attrs, level
    case status, error

    var name: StaticString {
        switch self {
        case .v: "v"
        case .type: "type"
        case .ts: "ts"
        case .id: "id"
        case .parent: "parent"
        case .title: "title"
        case .total: "total"
        case .completed: "completed"
        case .unit: "unit"
        case .message: "message"
        case .cancellable: "cancellable"
        case .blocking: "blocking"
        case .attrs: "attrs"
        case .level: "level"
        case .status: "status"
        case .error: "error"
        }
    }
}

/// The top-level members of one object: where each known key's value stands, found in one pass
/// that also checks the syntax of the whole line and rejects duplicate keys.
struct RawFields {
    struct DuplicateKey: Error {
        var name: String
    }

    private var values: [JSONScanner.Value?] = Array(repeating: nil, count: FieldName.allCases.count)
    /// Unknown keys seen so far, to catch their duplicates too. Empty for almost every line.
    private var otherKeys: [String] = []

    subscript(_ name: FieldName) -> JSONScanner.Value? { values[name.rawValue] }

    mutating func scanObject(_ scanner: inout JSONScanner) throws {
        scanner.index += 1  // the "{"
        if !scanner.consume(UInt8(ascii: "}")) {
            repeat {
                scanner.skipWhitespace()
                guard !scanner.atEnd, scanner.bytes[scanner.index] == UInt8(ascii: "\"") else {
                    throw scanner.fail("expected a key")
                }
                guard case .string(let keyRange, let escaped) = try scanner.string() else { fatalError() }
                try scanner.expect(UInt8(ascii: ":"), "':'")
                let value = try scanner.value(depth: 1)
                try record(keyRange, escaped: escaped, value: value, scanner: scanner)
            } while scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "}"), "',' or '}'")
        }
        scanner.skipWhitespace()
        guard scanner.atEnd else { throw scanner.fail("text after the object") }
    }

    private mutating func record(
        _ key: Range<Int>, escaped: Bool, value: JSONScanner.Value, scanner: JSONScanner
    ) throws {
        if let field = Self.field(key, escaped: escaped, scanner: scanner) {
            guard values[field.rawValue] == nil else { throw DuplicateKey(name: field.name.description) }
            values[field.rawValue] = value
            return
        }
        let name = scanner.decodeString(key, escaped: escaped)
        guard !otherKeys.contains(name) else { throw DuplicateKey(name: name) }
        otherKeys.append(name)
    }

    private static func field(_ key: Range<Int>, escaped: Bool, scanner: JSONScanner) -> FieldName? {
        guard escaped || (1...11).contains(key.count) else { return nil }
        for field in FieldName.allCases where scanner.stringEquals(key, escaped: escaped, field.name) {
            return field
        }
        return nil
    }
}
