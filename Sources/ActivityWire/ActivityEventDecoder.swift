/// Reads protocol v1 events from JSON lines.
///
/// Each line yields an event or says why it is not one (``DecodedLine``). The decoder is strict
/// about what the protocol defines (types, ranges, id syntax, duplicate keys, UTF-8) and lenient
/// about what it does not: unknown fields and unknown event types are ignored, and a line of a
/// higher protocol version is skipped with a warning.
///
/// ```swift
/// let decoder = ActivityEventDecoder()
/// switch decoder.decode(#"{"v":1,"type":"log","message":"hi"}"#, line: 1) {
/// case .event(let event): print(event)
/// case let other: print(other.diagnostic?.description ?? "skipped")
/// }
/// ```
///
/// Rules that span lines (one `begin` per id, no event after `end`) belong to
/// ``StreamValidator``.
public struct ActivityEventDecoder: Sendable {
    public init() {}

    /// Decodes one line, without its terminating newline.
    public func decode(_ line: String, line number: Int = 1) -> DecodedLine {
        var line = line
        return line.withUTF8 { decode($0, line: number) }
    }

    /// Decodes one line, without its terminating newline.
    public func decode(_ bytes: some Collection<UInt8>, line number: Int = 1) -> DecodedLine {
        if let result = bytes.withContiguousStorageIfAvailable({ decode($0, line: number) }) { return result }
        return Array(bytes).withUnsafeBufferPointer { decode($0, line: number) }
    }

    /// Decodes one line, without its terminating newline.
    public func decode(_ bytes: UnsafeBufferPointer<UInt8>, line number: Int) -> DecodedLine {
        decodeInPlace(bytes, line: number).decoded
    }

    /// Decodes one line, without its terminating newline, leaving its texts in place: what a
    /// consumer that folds events as they stream by calls, to make only the strings it keeps.
    package func decodeInPlace(_ bytes: UnsafeBufferPointer<UInt8>, line number: Int) -> LineDecoding {
        if let event = fastEvent(bytes) { return .event(event) }
        return decodeSlowly(bytes, line: number)
    }

    /// The event of a line that one of the fast paths takes: the canonical form, or the
    /// protocol's keys in any order and spelling; `nil` for any other line, which
    /// ``decodeSlowly(_:line:)`` decodes. The two are ``decodeInPlace(_:line:)``, for a caller
    /// that hands fast-path events on without wrapping them.
    package func fastEvent(_ bytes: UnsafeBufferPointer<UInt8>) -> LineEvent? {
        guard bytes.count <= LineEvent.maxLineBytes else { return nil }
        return CanonicalFastPath.event(bytes) ?? AnyOrderFastPath.event(bytes)
    }

    /// A line the fast path did not take.
    package func decodeSlowly(_ bytes: UnsafeBufferPointer<UInt8>, line number: Int) -> LineDecoding {
        guard bytes.count <= LineEvent.maxLineBytes else {
            return .other(
                .text(
                    Diagnostic(
                        line: number, code: .lineTooLong, message: "the line is longer than 2 GiB; not read as an event"
                    )))
        }
        return decodeGenerally(bytes, line: number)
    }

    /// Decodes one line with the general scanner: every shape, every diagnostic.
    func decodeGenerally(_ bytes: UnsafeBufferPointer<UInt8>, line number: Int) -> LineDecoding {
        var scanner = JSONScanner(bytes)
        scanner.skipWhitespace()
        if scanner.atEnd { return .other(.blank) }
        // A line claims to be an event only by being an object with a top-level "v". Anything else
        // (not UTF-8, not JSON, not an object, or an object without "v") is text: the tool's own
        // output, which `activity render` passes through and `validate` reports.
        func text(_ code: Diagnostic.Code, _ message: String) -> LineDecoding {
            .other(.text(Diagnostic(line: number, code: code, message: message)))
        }
        guard UTF8Validation.isValid(bytes) else {
            return text(.invalidUTF8, "the line is not valid UTF-8")
        }
        guard bytes[scanner.index] == UInt8(ascii: "{") else {
            do throws(JSONScanner.SyntaxError) {
                let value = try scanner.value()
                scanner.skipWhitespace()
                guard scanner.atEnd else { throw scanner.fail("text after the value") }
                return text(.notAnObject, "an event must be a JSON object, not \(value.typeName)")
            } catch {
                return text(.invalidJSON, "not JSON: \(error.message) at byte \(error.offset + 1)")
            }
        }
        let fields: RawFields
        let duplicate: [UInt8]?
        do throws(JSONScanner.SyntaxError) {
            (fields, duplicate) = try RawFields.scan(&scanner)
        } catch {
            return text(.invalidJSON, "not JSON: \(error.message) at byte \(error.offset + 1)")
        }
        guard fields[.v] != nil else {
            return text(.missingField, "the required field \"v\" is missing")
        }
        if let duplicate {
            let name = Diagnostic.quoted(String(decoding: duplicate, as: UTF8.self))
            return .other(
                .invalid(Diagnostic(line: number, code: .duplicateKey, message: "the key \(name) appears twice")))
        }
        return withUnsafePointer(to: fields) { FieldReader(scanner: scanner, fields: $0, line: number).event() }
    }
}

/// A fast check of a whole line before it is parsed: ASCII runs are skipped eight bytes at a time.
enum UTF8Validation {
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let count = bytes.count
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i + 8 <= count, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
            }
        }
        while i < count, bytes[i] < 0x80 { i += 1 }
        if i == count { return true }
        var decoder = UTF8()
        var iterator = UnsafeBufferPointer(rebasing: bytes[i...]).makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
