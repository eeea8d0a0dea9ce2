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

    func event() -> DecodedLine {
        do throws(Problem) {
            let version = try required(.v, number)
            guard version == version.rounded(), version >= 1 else {
                throw Problem(code: .invalidValue, message: "\"v\" must be a positive integer")
            }
            if version > Double(WireLimits.version) {
                return .ignored(
                    Diagnostic(
                        line: line, code: .unsupportedVersion,
                        message:
                            "protocol version \(Int(exactly: version).map(String.init) ?? "\(version)") is newer than 1; line skipped"
                    )
                )
            }
            let type = try required(.type, string)
            let ts = try optional(.ts, count)
            switch type {
            case "begin": return .event(.begin(try begin(ts)))
            case "progress": return .event(.progress(try progress(ts)))
            case "log": return .event(.log(try log(ts)))
            case "end": return .event(.end(try end(ts)))
            default: return .ignored(nil)
            }
        } catch {
            return .invalid(Diagnostic(line: line, code: error.code, message: error.message))
        }
    }

    private func begin(_ ts: Double?) throws(Problem) -> ActivityEvent.Begin {
        ActivityEvent.Begin(
            id: try required(.id, id),
            title: try required(.title, string),
            parent: try optional(.parent, id),
            total: try optional(.total, totalValue)?.value,
            completed: try optional(.completed, count) ?? 0,
            unit: try optional(.unit, string),
            message: try optional(.message, string),
            cancellable: try optional(.cancellable, bool) ?? false,
            blocking: try optional(.blocking, enumeration(ActivityEvent.Blocking.self)) ?? .none,
            attrs: try optional(.attrs, attributes) ?? [:],
            timestamp: ts
        )
    }

    private func progress(_ ts: Double?) throws(Problem) -> ActivityEvent.Progress {
        ActivityEvent.Progress(
            id: try required(.id, id),
            completed: try optional(.completed, count),
            total: try optional(.total, totalValue),
            message: try optional(.message, string),
            title: try optional(.title, string),
            timestamp: ts
        )
    }

    private func log(_ ts: Double?) throws(Problem) -> ActivityEvent.Log {
        ActivityEvent.Log(
            message: try required(.message, string),
            id: try optional(.id, id),
            level: try optional(.level, enumeration(ActivityEvent.Level.self)) ?? .info,
            timestamp: ts
        )
    }

    private func end(_ ts: Double?) throws(Problem) -> ActivityEvent.End {
        ActivityEvent.End(
            id: try required(.id, id),
            status: try optional(.status, enumeration(ActivityEvent.Status.self)) ?? .success,
            message: try optional(.message, string),
            error: try optional(.error, string),
            completed: try optional(.completed, count),
            total: try optional(.total, totalValue),
            timestamp: ts
        )
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

    private func string(_ field: FieldName, _ value: JSONScanner.Value) throws(Problem) -> String {
        guard case .string(let range, let escaped) = value else { throw wrongType(field, value, expected: "a string") }
        return scanner.decodeString(range, escaped: escaped)
    }

    private func number(_ field: FieldName, _ value: JSONScanner.Value) throws(Problem) -> Double {
        guard case .number(let range) = value else { throw wrongType(field, value, expected: "a number") }
        return scanner.decodeNumber(range)
    }

    private func bool(_ field: FieldName, _ value: JSONScanner.Value) throws(Problem) -> Bool {
        guard case .bool(let flag) = value else { throw wrongType(field, value, expected: "a boolean") }
        return flag
    }

    /// A count or a time: finite, ≥ 0, ≤ 2^53.
    private func count(_ field: FieldName, _ value: JSONScanner.Value) throws(Problem) -> Double {
        let number = try number(field, value)
        guard number.isFinite, number >= 0, number <= WireLimits.maxCount else {
            throw Problem(
                code: .outOfRange,
                message: "\"\(field.name)\" must be a finite number from 0 to 2^53, not \(render(value))"
            )
        }
        return number
    }

    private func totalValue(_ field: FieldName, _ value: JSONScanner.Value) throws(Problem) -> ActivityEvent.Total {
        if case .null = value { return .indeterminate }
        guard case .number = value else { throw wrongType(field, value, expected: "a number or null") }
        return .value(try count(field, value))
    }

    private func id(_ field: FieldName, _ value: JSONScanner.Value) throws(Problem) -> ActivityID {
        if case .string(let range, false) = value {
            let raw = UnsafeBufferPointer(rebasing: scanner.bytes[range])
            if ActivityID.isValid(raw) { return ActivityID(unchecked: String(decoding: raw, as: UTF8.self)) }
        }
        let text = try string(field, value)
        guard ActivityID.isValid(text.utf8) else {
            let shown = text.utf8.count > 40 ? String(text.prefix(40)) + "…" : text
            throw Problem(
                code: .invalidID,
                message:
                    "\"\(field.name)\" must be 1 to 128 bytes of [A-Za-z0-9._:@/+-], not \"\(shown)\" (\(text.utf8.count) bytes)"
            )
        }
        return ActivityID(unchecked: text)
    }

    private func enumeration<E: RawRepresentable & CaseIterable>(_: E.Type) -> Parse<E> where E.RawValue == String {
        { (field, value) throws(Problem) in
            let text = try string(field, value)
            guard let result = E(rawValue: text) else {
                let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw Problem(
                    code: .invalidValue, message: "\"\(field.name)\" must be one of \(allowed), not \"\(text)\"")
            }
            return result
        }
    }

    private func attributes(_ field: FieldName, _ value: JSONScanner.Value) throws(Problem) -> [String: AttributeValue]
    {
        guard case .object(let range) = value else { throw wrongType(field, value, expected: "an object") }
        var inner = JSONScanner(scanner.bytes, from: range.lowerBound + 1)
        var result: [String: AttributeValue] = [:]
        if inner.consume(UInt8(ascii: "}")) { return result }
        do {
            repeat {
                inner.skipWhitespace()
                guard case .string(let keyRange, let escaped) = try inner.string() else { break }
                let key = scanner.decodeString(keyRange, escaped: escaped)
                try inner.expect(UInt8(ascii: ":"), "':'")
                let member = try inner.value(depth: 2)
                guard (1...WireLimits.maxAttributeKeyBytes).contains(key.utf8.count) else {
                    throw Problem(code: .invalidAttrs, message: "an \"attrs\" key must be 1 to 64 bytes long")
                }
                switch member {
                case .string(let r, let e): result[key] = .string(scanner.decodeString(r, escaped: e))
                case .bool(let b): result[key] = .bool(b)
                case .number(let r):
                    let n = scanner.decodeNumber(r)
                    guard n.isFinite else {
                        throw Problem(code: .invalidAttrs, message: "\"attrs.\(key)\" is not a finite number")
                    }
                    result[key] = .number(n)
                default:
                    throw Problem(
                        code: .invalidAttrs,
                        message: "\"attrs.\(key)\" must be a string, a number or a boolean, not \(member.typeName)"
                    )
                }
                guard result.count <= WireLimits.maxAttributes else {
                    throw Problem(code: .invalidAttrs, message: "\"attrs\" holds more than 32 keys")
                }
            } while inner.consume(UInt8(ascii: ","))
        } catch let error as Problem {
            throw error
        } catch {
            // The whole line was scanned before; a syntax error here cannot happen.
            throw Problem(code: .invalidJSON, message: "not JSON inside \"attrs\"")
        }
        return result
    }

    private func render(_ value: JSONScanner.Value) -> String {
        switch value {
        case .number(let range), .string(let range, _), .object(let range), .array(let range):
            let text = String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[range]), as: UTF8.self)
            return text.count > 40 ? String(text.prefix(40)) + "…" : text
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }
}
