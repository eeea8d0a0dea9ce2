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
/// that also checks the syntax of the whole line and finds duplicate keys.
struct RawFields {

    private typealias Slot = JSONScanner.Value?
    /// One slot per ``FieldName``, inline: decoding a line allocates nothing for its fields.
    private var values:
        (Slot, Slot, Slot, Slot, Slot, Slot, Slot, Slot, Slot, Slot, Slot, Slot, Slot, Slot, Slot, Slot) =
            (nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil)

    // A switch rather than pointer arithmetic over the tuple: reading a slot must not copy the
    // whole tuple, and the compiler turns this into a jump table.
    subscript(_ name: FieldName) -> JSONScanner.Value? {
        get {
            switch name {
            case .v: values.0
            case .type: values.1
            case .ts: values.2
            case .id: values.3
            case .parent: values.4
            case .title: values.5
            case .total: values.6
            case .completed: values.7
            case .unit: values.8
            case .message: values.9
            case .cancellable: values.10
            case .blocking: values.11
            case .attrs: values.12
            case .level: values.13
            case .status: values.14
            case .error: values.15
            }
        }
        set {
            switch name {
            case .v: values.0 = newValue
            case .type: values.1 = newValue
            case .ts: values.2 = newValue
            case .id: values.3 = newValue
            case .parent: values.4 = newValue
            case .title: values.5 = newValue
            case .total: values.6 = newValue
            case .completed: values.7 = newValue
            case .unit: values.8 = newValue
            case .message: values.9 = newValue
            case .cancellable: values.10 = newValue
            case .blocking: values.11 = newValue
            case .attrs: values.12 = newValue
            case .level: values.13 = newValue
            case .status: values.14 = newValue
            case .error: values.15 = newValue
            }
        }
    }

    /// The fields of the object under the cursor, and the first key it holds twice, if any.
    static func scan(_ scanner: inout JSONScanner) throws(JSONScanner.SyntaxError) -> (Self, duplicate: [UInt8]?) {
        var fields = RawFields()
        var otherKeys: [[UInt8]] = []
        var duplicate: [UInt8]?
        try fields.scanObject(&scanner, otherKeys: &otherKeys, duplicate: &duplicate)
        return (fields, duplicate)
    }

    /// Scans the object under the cursor. `otherKeys` collects the keys that are not fields of the
    /// protocol (their code points as UTF-8), to catch their duplicates too; it stays empty for
    /// almost every line, and keeping it outside makes this type trivially copyable. `duplicate`
    /// is the first key seen twice: whether that matters depends on whether the object turns out
    /// to be an event, which only the whole object tells.
    mutating func scanObject(
        _ scanner: inout JSONScanner, otherKeys: inout [[UInt8]], duplicate: inout [UInt8]?
    ) throws(JSONScanner.SyntaxError) {
        scanner.index += 1  // the "{"
        if !scanner.consume(UInt8(ascii: "}")) {
            repeat {
                scanner.skipWhitespace()
                guard !scanner.atEnd, scanner.bytes[scanner.index] == UInt8(ascii: "\"") else {
                    throw scanner.fail("expected a key")
                }
                let key = try scanner.scanString()
                let (keyRange, escaped) = (key.range, key.escaped)
                try scanner.expect(UInt8(ascii: ":"), "':'")
                let value = try scanner.value(depth: 1)
                if let repeated = record(
                    keyRange, escaped: escaped, value: value, scanner: scanner, otherKeys: &otherKeys)
                {
                    duplicate = duplicate ?? repeated
                }
            } while scanner.consume(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "}"), "',' or '}'")
        }
        scanner.skipWhitespace()
        guard scanner.atEnd else { throw scanner.fail("text after the object") }
    }

    /// Records one member; returns its key if the key was seen before.
    private mutating func record(
        _ key: Range<Int>, escaped: Bool, value: JSONScanner.Value, scanner: JSONScanner, otherKeys: inout [[UInt8]]
    ) -> [UInt8]? {
        if let field = Self.field(key, escaped: escaped, scanner: scanner) {
            guard self[field] == nil else { return field.name.withUTF8Buffer { Array($0) } }
            self[field] = value
            return nil
        }
        let name = scanner.decodeBytes(key, keepingSurrogates: true)
        guard !otherKeys.contains(name) else { return name }
        otherKeys.append(name)
        return nil
    }

    /// Whether `prefix`, the start of a line too long to read whole, is the start of an object
    /// with a top-level `v` key among the members it holds whole. Canonical lines put `v` first.
    static func namesVersion(_ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        var scanner = JSONScanner(prefix)
        guard scanner.consume(UInt8(ascii: "{")) else { return false }
        repeat {
            scanner.skipWhitespace()
            guard !scanner.atEnd, prefix[scanner.index] == UInt8(ascii: "\""),
                let key = try? scanner.scanString()
            else { return false }
            if field(key.range, escaped: key.escaped, scanner: scanner) == .v { return true }
            guard (try? scanner.expect(UInt8(ascii: ":"), "':'")) != nil, (try? scanner.value(depth: 1)) != nil else {
                return false
            }
        } while scanner.consume(UInt8(ascii: ","))
        return false
    }

    private static func field(_ key: Range<Int>, escaped: Bool, scanner: JSONScanner) -> FieldName? {
        if escaped {
            return FieldName.allCases.first { scanner.stringEquals(key, escaped: true, $0.name) }
        }
        // Dispatch on length and first byte, then confirm with one comparison: no allocation.
        let first = scanner.bytes[key.lowerBound]
        let candidate: FieldName?
        switch (key.count, first) {
        case (1, UInt8(ascii: "v")): candidate = .v
        case (2, UInt8(ascii: "i")): candidate = .id
        case (2, UInt8(ascii: "t")): candidate = .ts
        case (4, UInt8(ascii: "t")): candidate = .type
        case (4, UInt8(ascii: "u")): candidate = .unit
        case (5, UInt8(ascii: "t")):
            candidate = scanner.bytes[key.lowerBound + 1] == UInt8(ascii: "i") ? .title : .total
        case (5, UInt8(ascii: "l")): candidate = .level
        case (5, UInt8(ascii: "e")): candidate = .error
        case (5, UInt8(ascii: "a")): candidate = .attrs
        case (6, UInt8(ascii: "p")): candidate = .parent
        case (6, UInt8(ascii: "s")): candidate = .status
        case (7, UInt8(ascii: "m")): candidate = .message
        case (8, UInt8(ascii: "b")): candidate = .blocking
        case (9, UInt8(ascii: "c")): candidate = .completed
        case (11, UInt8(ascii: "c")): candidate = .cancellable
        default: candidate = nil
        }
        guard let candidate, scanner.stringEquals(key, escaped: false, candidate.name) else { return nil }
        return candidate
    }
}
