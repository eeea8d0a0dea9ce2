#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns the raw fields of one object into an event, checking each field's type and range.
struct FieldReader {
    struct Problem: Error {
        var code: Diagnostic.Code
        var message: String
    }

    let scanner: JSONScanner
    /// Borrowed for the reader's lifetime: the slots are large, and every field parser is a closure
    /// over `self`, so holding them by value would copy them once per field.
    let fields: UnsafePointer<RawFields>
    let line: Int

    init(scanner: JSONScanner, fields: UnsafePointer<RawFields>, line: Int) {
        self.scanner = scanner
        self.fields = fields
        self.line = line
    }

    func event() -> LineDecoding {
        do throws(Problem) {
            if let newer = try required(.v, version) {
                return .other(
                    .ignored(
                        Diagnostic(
                            line: line, code: .unsupportedVersion,
                            message: "protocol version \(newer) is newer than \(WireLimits.version); line skipped")))
            }
            let type = try required(.type, text)
            let ts = try optional(.ts, count)
            // Byte comparison: `String` equality would also match canonically equivalent spellings.
            let kind: LineEvent.Kind
            if scanner.stringEquals(type.range, escaped: type.escaped, "progress") {
                kind = .progress
            } else if scanner.stringEquals(type.range, escaped: type.escaped, "begin") {
                kind = .begin
            } else if scanner.stringEquals(type.range, escaped: type.escaped, "end") {
                kind = .end
            } else if scanner.stringEquals(type.range, escaped: type.escaped, "log") {
                kind = .log
            } else {
                return .other(.ignored(nil))
            }
            var event = LineEvent(bytes: scanner.bytes, kind: kind, timestamp: ts)
            switch kind {
            case .begin: try begin(&event)
            case .progress: try progress(&event)
            case .log: try log(&event)
            case .end: try end(&event)
            }
            return .event(event)
        } catch {
            return .other(.invalid(Diagnostic(line: line, code: error.code, message: error.message)))
        }
    }

    // The fields are checked in the order the protocol lists them: the first problem is reported.

    private func begin(_ event: inout LineEvent) throws(Problem) {
        event.id = try required(.id, id)
        event.title = try required(.title, text)
        event.parent = try optional(.parent, id)
        event.total = try optional(.total, totalValue)
        event.completed = try optional(.completed, count) ?? 0
        event.unit = try optional(.unit, text)
        event.message = try optional(.message, text)
        event.cancellable = try optional(.cancellable, bool) ?? false
        event.blocking = try optional(.blocking, enumeration(ActivityEvent.Blocking.self)) ?? .none
        event.attributes = try optional(.attrs, attributes)
    }

    private func progress(_ event: inout LineEvent) throws(Problem) {
        event.id = try required(.id, id)
        event.completed = try optional(.completed, count)
        event.total = try optional(.total, totalValue)
        event.message = try optional(.message, text)
        event.title = try optional(.title, text)
    }

    private func log(_ event: inout LineEvent) throws(Problem) {
        event.message = try required(.message, text)
        event.id = try optional(.id, id)
        event.level = try optional(.level, enumeration(ActivityEvent.Level.self)) ?? .info
    }

    private func end(_ event: inout LineEvent) throws(Problem) {
        event.id = try required(.id, id)
        event.status = try optional(.status, enumeration(ActivityEvent.Status.self)) ?? .success
        event.message = try optional(.message, text)
        event.error = try optional(.error, text)
        event.completed = try optional(.completed, count)
        event.total = try optional(.total, totalValue)
    }

    // MARK: - Field access

    private typealias Parse<T> = (FieldName, JSONScanner.Value) throws(Problem) -> T

    private func required<T>(_ field: FieldName, _ parse: Parse<T>) throws(Problem) -> T {
        guard let value = fields.pointee[field] else {
            throw Problem(code: .missingField, message: "the required field \"\(field.name)\" is missing")
        }
        return try parse(field, value)
    }

    private func optional<T>(_ field: FieldName, _ parse: Parse<T>) throws(Problem) -> T? {
        guard let value = fields.pointee[field] else { return nil }
        return try parse(field, value)
    }

    private func wrongType(_ field: FieldName, _ value: JSONScanner.Value, expected: String) -> Problem {
        Problem(code: .wrongType, message: "\"\(field.name)\" must be \(expected), not \(value.typeName)")
    }

    // MARK: - Field types

    /// A string left in place: its type checked, its escapes (valid: the line was scanned) kept.
    private func text(_ field: FieldName, _ value: JSONScanner.Value) throws(Problem) -> LineEvent.Text {
        guard case .string(let range, let escaped) = value else { throw wrongType(field, value, expected: "a string") }
        return LineEvent.Text(range: range, escaped: escaped)
    }

    private func number(_ field: FieldName, _ value: JSONScanner.Value) throws(Problem) -> Double {
        guard case .number(let range) = value else { throw wrongType(field, value, expected: "a number") }
        return scanner.decodeNumber(range)
    }

    private func bool(_ field: FieldName, _ value: JSONScanner.Value) throws(Problem) -> Bool {
        guard case .bool(let flag) = value else { throw wrongType(field, value, expected: "a boolean") }
        return flag
    }

    /// A count or a time: from 0 to 2^53, as written (not as rounded to a double).
    private func count(_ field: FieldName, _ value: JSONScanner.Value) throws(Problem) -> Double {
        guard case .number(let range) = value else { throw wrongType(field, value, expected: "a number") }
        if let number = scanner.decodeShortCount(range) { return number }
        guard let number = scanner.decodeCount(range) else {
            throw Problem(
                code: .outOfRange,
                message: "\"\(field.name)\" must be a finite number from 0 to 2^53, not \(numberText(range))"
            )
        }
        return number
    }

    /// The protocol version: `nil` for 1, or how a newer one is written. `1.0` is 1; `1.5`, `0`
    /// and negative numbers are not versions.
    private func version(_ field: FieldName, _ value: JSONScanner.Value) throws(Problem) -> String? {
        guard case .number(let range) = value else { throw wrongType(field, value, expected: "a number") }
        let digits = DecimalDigits(scanner.bytes, range)
        guard digits.isInteger, !digits.isNegative, !digits.isZero else {
            throw Problem(code: .invalidValue, message: "\"v\" must be a positive integer")
        }
        guard digits.exceedsMaxCount || scanner.decodeNumber(range) > Double(WireLimits.version) else { return nil }
        return numberText(range)
    }

    private func totalValue(_ field: FieldName, _ value: JSONScanner.Value) throws(Problem) -> ActivityEvent.Total {
        if case .null = value { return .indeterminate }
        guard case .number = value else { throw wrongType(field, value, expected: "a number or null") }
        return .value(try count(field, value))
    }

    private func id(_ field: FieldName, _ value: JSONScanner.Value) throws(Problem) -> LineEvent.Text {
        if case .string(let range, false) = value,
            ActivityID.isValid(UnsafeBufferPointer(rebasing: scanner.bytes[range]))
        {
            return LineEvent.Text(range: range, escaped: false)
        }
        let found = try text(field, value)
        let text = scanner.decodeString(found.range, escaped: found.escaped)
        guard ActivityID.isValid(text.utf8) else {
            throw Problem(
                code: .invalidID,
                message:
                    "\"\(field.name)\" must be 1 to 128 bytes of [A-Za-z0-9._:@/+-], not \(Diagnostic.quoted(text)) (\(text.utf8.count) bytes)"
            )
        }
        return found
    }

    private func enumeration<E: RawRepresentable & CaseIterable>(_: E.Type) -> Parse<E> where E.RawValue == String {
        { (field, value) throws(Problem) in
            let found = try text(field, value)
            // Byte comparison, as for keys: `E(rawValue:)` would compare up to Unicode equivalence.
            for candidate in E.allCases {
                var name = candidate.rawValue
                let matches = name.withUTF8 { raw in
                    found.escaped
                        ? scanner.decodeBytes(found.range, keepingSurrogates: true).elementsEqual(raw)
                        : found.range.count == raw.count
                            && memcmp(scanner.bytes.baseAddress! + found.range.lowerBound, raw.baseAddress!, raw.count)
                                == 0
                }
                if matches { return candidate }
            }
            let text = scanner.decodeString(found.range, escaped: found.escaped)
            let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw Problem(
                code: .invalidValue,
                message: "\"\(field.name)\" must be one of \(allowed), not \(Diagnostic.quoted(text))")
        }
    }

    /// The `attrs` object, checked whole (its members are read again by ``LineEvent/event()``,
    /// which keeps the event free of references until a consumer asks for it whole).
    private func attributes(_ field: FieldName, _ value: JSONScanner.Value) throws(Problem) -> LineEvent.Text {
        guard case .object(let range) = value else { throw wrongType(field, value, expected: "an object") }
        _ = try Self.attributes(in: scanner, object: range)
        return LineEvent.Text(range: range, escaped: false)
    }

    /// The members of the `attrs` object in `range`, checked.
    static func attributes(
        in scanner: JSONScanner, object range: Range<Int>
    ) throws(Problem) -> [AttributeKey: AttributeValue] {
        var inner = JSONScanner(scanner.bytes, from: range.lowerBound + 1)
        var result: [AttributeKey: AttributeValue] = [:]
        if inner.consume(UInt8(ascii: "}")) { return result }
        // The keys as written, each lone surrogate escape kept apart: what duplicates are found by.
        var written: Set<[UInt8]> = []
        repeat {
            // The whole line was scanned before, so this reads what was already checked; should it
            // ever fail, the event is refused, never the process.
            inner.skipWhitespace()
            guard let scanned = try? inner.scanString(), (try? inner.expect(UInt8(ascii: ":"), "':'")) != nil,
                let member = try? inner.value(depth: 2)
            else { throw Problem(code: .invalidAttrs, message: "\"attrs\" is not an object of members") }
            let (keyRange, escaped) = (scanned.range, scanned.escaped)
            let key = try attributeKey(keyRange, escaped: escaped, in: scanner)
            let asWritten =
                escaped
                ? scanner.decodeBytes(keyRange, keepingSurrogates: true)
                : Array(UnsafeBufferPointer(rebasing: scanner.bytes[keyRange]))
            guard written.insert(asWritten).inserted else {
                throw Problem(
                    code: .duplicateKey, message: "the \"attrs\" key \(Diagnostic.quoted(key.rawValue)) appears twice")
            }
            let value: AttributeValue
            switch member {
            case .string(let r, let e): value = .string(scanner.decodeString(r, escaped: e))
            case .bool(let b): value = .bool(b)
            case .number(let r):
                let n = scanner.decodeNumber(r)
                guard n.isFinite else {
                    throw Problem(
                        code: .invalidAttrs,
                        message:
                            "\(Diagnostic.quoted("attrs." + key.rawValue)) is beyond a double's range: \(numberText(r, in: scanner))"
                    )
                }
                value = .number(n)
            default:
                throw Problem(
                    code: .invalidAttrs,
                    message:
                        "\(Diagnostic.quoted("attrs." + key.rawValue)) must be a string, a number or a boolean, not \(member.typeName)"
                )
            }
            // Two keys that differ only in their lone surrogates are one key once each is U+FFFD:
            // the first is kept.
            if result[key] == nil { result[key] = value }
            guard written.count <= WireLimits.maxAttributes else {
                throw Problem(code: .invalidAttrs, message: "\"attrs\" holds more than 32 keys")
            }
        } while inner.consume(UInt8(ascii: ","))
        return result
    }

    /// An `attrs` key: 1 to 64 bytes of Unicode text. A lone surrogate escape (`\uD800`) becomes
    /// U+FFFD, as in a title (three bytes, as the escape's code point would be).
    private static func attributeKey(
        _ range: Range<Int>, escaped: Bool, in scanner: JSONScanner
    ) throws(Problem) -> AttributeKey {
        let bytes =
            escaped
            ? scanner.decodeBytes(range, keepingSurrogates: false)
            : Array(UnsafeBufferPointer(rebasing: scanner.bytes[range]))
        guard (1...WireLimits.maxAttributeKeyBytes).contains(bytes.count) else {
            throw Problem(code: .invalidAttrs, message: "an \"attrs\" key must be 1 to 64 bytes long")
        }
        return AttributeKey(String(decoding: bytes, as: UTF8.self))
    }

    /// A number as written, cut like quoted text: it holds only digits, signs, `.` and `e`.
    private func numberText(_ range: Range<Int>) -> String {
        Self.numberText(range, in: scanner)
    }

    private static func numberText(_ range: Range<Int>, in scanner: JSONScanner) -> String {
        let text = String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[range]), as: UTF8.self)
        let limit = Diagnostic.quotedScalarLimit
        return text.utf8.count > limit ? String(text.utf8.prefix(limit))! + "…" : text
    }
}
