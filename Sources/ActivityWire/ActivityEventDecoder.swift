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

    /// What ``fastEvent(_:)`` gives, for the lines of one stream in turn: a stream whose lines
    /// are not in canonical form has each tried by the any-order path first, so that a line
    /// which is canonical but for its last keys (`ts` last) is not read twice.
    package func fastEvent(_ bytes: UnsafeBufferPointer<UInt8>, _ order: inout FastPathOrder) -> LineEvent? {
        guard bytes.count <= LineEvent.maxLineBytes else { return nil }
        if order.linesBeforeCanonical > 0 {
            order.linesBeforeCanonical &-= 1
            return AnyOrderFastPath.event(bytes) ?? CanonicalFastPath.event(bytes)
        }
        if let event = CanonicalFastPath.event(bytes) { return event }
        guard let event = AnyOrderFastPath.event(bytes) else { return nil }
        order.linesBeforeCanonical = FastPathOrder.linesBetweenTries
        return event
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

/// Which fast path ``ActivityEventDecoder/fastEvent(_:_:)`` tries first on a stream's next line.
/// Both give the same event; the order only decides how much is read twice. After a line that
/// only the any-order path took, the canonical path is tried first again after some lines, so
/// a canonical stream with a few other lines in it goes back to it.
package struct FastPathOrder {
    static let linesBetweenTries = 64
    var linesBeforeCanonical = 0

    package init() {}
}

/// A fast check of bytes before they are parsed: ASCII runs are skipped eight bytes at a time,
/// also after each scalar that is not ASCII, so a line with a few such scalars early on is not
/// checked byte by byte from there to its end.
enum UTF8Validation {
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var i = 0
        while true {
            while count &- i >= 8 {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                let wide = UInt64(littleEndian: word) & 0x8080_8080_8080_8080
                if wide != 0 {
                    i &+= wide.trailingZeroBitCount >> 3
                    break
                }
                i &+= 8
            }
            while i < count, base[i] < 0x80 { i &+= 1 }
            guard i < count else { return true }
            guard let length = scalarLength(base + i, count &- i) else { return false }
            i &+= length
        }
    }

    /// The length of the well-formed scalar (RFC 3629: no overlong form, no surrogate, at most
    /// U+10FFFF) that starts with the byte above ASCII at `start`, of the `left` bytes there;
    /// `nil` when none does.
    @inline(__always)
    static func scalarLength(_ start: UnsafePointer<UInt8>, _ left: Int) -> Int? {
        let lead = start[0]
        func continuation(_ offset: Int) -> Bool { offset < left && start[offset] & 0xC0 == 0x80 }
        // The second byte's range, narrower than a continuation's for these leads.
        func second(_ range: ClosedRange<UInt8>) -> Bool { left > 1 && range.contains(start[1]) }
        switch lead {
        case 0xC2...0xDF:
            return continuation(1) ? 2 : nil
        case 0xE0:
            return second(0xA0...0xBF) && continuation(2) ? 3 : nil
        case 0xED:
            return second(0x80...0x9F) && continuation(2) ? 3 : nil
        case 0xE1...0xEF:
            return continuation(1) && continuation(2) ? 3 : nil
        case 0xF0:
            return second(0x90...0xBF) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF4:
            return second(0x80...0x8F) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF1...0xF3:
            return continuation(1) && continuation(2) && continuation(3) ? 4 : nil
        default:
            return nil
        }
    }
}
