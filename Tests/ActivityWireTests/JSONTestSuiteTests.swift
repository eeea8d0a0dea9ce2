import ActivityWire
import Foundation
import Testing

/// The parsing cases of JSONTestSuite (https://github.com/nst/JSONTestSuite, MIT licence, vendored
/// under `JSONTestSuite/` with its licence, unchanged from commit 1ef36fa01286573e846ac449e8683f8833c5b26a),
/// read at run time. `n_` cases are not JSON, `y_` cases
/// are, and `i_` cases are left to implementations by RFC 8259: the protocol decides those in
/// Schemas/README.md §8, and ``ImplementationDefined/table`` holds one outcome per file.
///
/// A case is tried as the value of an unknown field of an otherwise valid event (the decoder must
/// judge the value's JSON, then ignore it) and as a line of its own (it is never an event: no case
/// is an object with a top-level `"v"`).
///
/// Line breaks: a stream's lines end at LF, so a case holding a raw LF (JSON white space in the `y_`
/// cases, a syntax error in some `n_` ones) cannot stand inside one line. Such a case is checked
/// twice: the line decoder gets the whole embedded case, LFs included (it treats LF as the white
/// space RFC 8259 says it is), which gives the grammar's verdict; and the stream reader gets the
/// same bytes, cuts them at each LF, and no resulting line may be an event, because a broken event
/// must never be half applied. A CR stays inside its line (only LF ends one) and is JSON white
/// space, so it needs nothing special.
enum JSONTestSuite {
    static let folder = URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "JSONTestSuite/test_parsing")

    /// The case names (file names without `.json`) that start with `prefix`, sorted.
    static func names(_ prefix: String) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: folder.appending(path: name + ".json")))
    }

    static let lineFeed = UInt8(ascii: "\n")

    /// `{"v":1,"type":"log","message":"m","x":CASE}`: valid exactly when CASE is a JSON value.
    static func embedded(_ value: [UInt8]) -> [UInt8] {
        Array(#"{"v":1,"type":"log","message":"m","x":"#.utf8) + value + [UInt8(ascii: "}")]
    }

    static let embeddedEvent = DecodedLine.event(.log(.init(message: "m")))

    /// What the stream reader makes of `bytes`: one result per line.
    static func streamLines(_ bytes: [UInt8]) throws -> [DecodedLine] {
        var reader = EventStreamReader(source: BytesSource(bytes))
        var lines: [DecodedLine] = []
        try reader.forEach { if $0.isLineStart { lines.append($0.decoded) } }
        return lines
    }

    static func isJSONWhiteSpace(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0A, 0x0D].contains(byte) }
}

/// A decoded line reduced to what the protocol names: its kind and its diagnostic code.
enum Outcome: Hashable, CustomStringConvertible {
    case event
    case ignored(Diagnostic.Code?)
    case text(Diagnostic.Code)
    case invalid(Diagnostic.Code)
    case blank

    init(_ line: DecodedLine) {
        switch line {
        case .event: self = .event
        case .ignored(let d): self = .ignored(d?.code)
        case .text(let d): self = .text(d.code)
        case .invalid(let d): self = .invalid(d.code)
        case .blank: self = .blank
        }
    }

    var description: String {
        switch self {
        case .event: "event"
        case .ignored(let code): "ignored(\(code?.rawValue ?? "-"))"
        case .text(let code): "text(\(code.rawValue))"
        case .invalid(let code): "invalid(\(code.rawValue))"
        case .blank: "blank"
        }
    }

    /// Not JSON: the only outcomes an `n_` case may have.
    var isNotJSON: Bool { self == .text(.invalidJSON) || self == .text(.invalidUTF8) }
}

@Suite("JSONTestSuite: n_ cases are never events")
struct JSONTestSuiteRejectionTests {
    let decoder = ActivityEventDecoder()

    @Test("There are all 188 n_ cases")
    func count() {
        #expect(JSONTestSuite.names("n_").count == 188)
    }

    @Test("An n_ case makes the event around it not JSON", arguments: JSONTestSuite.names("n_"))
    func embedded(_ name: String) throws {
        let bytes = try JSONTestSuite.bytes(name)
        let line = JSONTestSuite.embedded(bytes)
        let direct = Outcome(decoder.decode(line))
        #expect(direct.isNotJSON, "\(name): \(direct)")

        let lines = try JSONTestSuite.streamLines(line)
        #expect(!lines.contains { $0.event != nil }, "\(name): \(lines)")
        guard !bytes.contains(JSONTestSuite.lineFeed) else { return }
        if line.count > WireLimits.maxAcceptedLineBytes {
            // Skipped unread; its start shows a top-level "v", so it is a (rejected) event.
            #expect(lines.map(Outcome.init) == [.invalid(.lineTooLong)], "\(name)")
        } else {
            #expect(lines.map(Outcome.init) == [direct], "\(name)")
        }
    }

    @Test(
        "An n_ case as a line of its own is text (or blank, if only white space)", arguments: JSONTestSuite.names("n_"))
    func wholeLine(_ name: String) throws {
        let bytes = try JSONTestSuite.bytes(name)
        let direct = Outcome(decoder.decode(bytes))
        if bytes.allSatisfy(JSONTestSuite.isJSONWhiteSpace) {
            #expect(direct == .blank, "\(name)")  // n_single_space, n_structure_no_data
        } else {
            #expect(direct.isNotJSON, "\(name): \(direct)")
        }

        let lines = try JSONTestSuite.streamLines(bytes)
        #expect(!lines.contains { $0.event != nil }, "\(name): \(lines)")
        if bytes.count > WireLimits.maxAcceptedLineBytes, !bytes.contains(JSONTestSuite.lineFeed) {
            #expect(lines.map(Outcome.init) == [.text(.lineTooLong)], "\(name)")
        }
    }
}

@Suite("JSONTestSuite: y_ cases are accepted")
struct JSONTestSuiteAcceptanceTests {
    let decoder = ActivityEventDecoder()

    @Test("There are all 95 y_ cases")
    func count() {
        #expect(JSONTestSuite.names("y_").count == 95)
    }

    @Test("A y_ case is accepted, and ignored, as the value of an unknown field", arguments: JSONTestSuite.names("y_"))
    func embedded(_ name: String) throws {
        let bytes = try JSONTestSuite.bytes(name)
        let line = JSONTestSuite.embedded(bytes)
        #expect(decoder.decode(line) == JSONTestSuite.embeddedEvent, "\(name)")

        let lines = try JSONTestSuite.streamLines(line)
        if bytes.contains(JSONTestSuite.lineFeed) {
            // Cut at its LFs (white space here): no piece is an event by itself.
            #expect(lines.count > 1, "\(name)")
            #expect(!lines.contains { $0.event != nil }, "\(name): \(lines)")
        } else {
            #expect(lines == [JSONTestSuite.embeddedEvent], "\(name)")
        }
    }

    @Test(
        "A y_ case as a line of its own is JSON text: not an object, or an object without \"v\"",
        arguments: JSONTestSuite.names("y_"))
    func wholeLine(_ name: String) throws {
        let bytes = try JSONTestSuite.bytes(name)
        let first = bytes.first { !JSONTestSuite.isJSONWhiteSpace($0) }
        let expected: Outcome = first == UInt8(ascii: "{") ? .text(.missingField) : .text(.notAnObject)
        #expect(Outcome(decoder.decode(bytes)) == expected, "\(name)")
    }
}

/// The `i_` cases, one row per file, as Schemas/README.md §8 ("Limits and edge cases of JSON")
/// decides them.
@Suite("JSONTestSuite: i_ cases get the outcome the protocol names")
struct ImplementationDefined {
    /// Where a case's value means something, beyond being valid JSON.
    enum Use: Hashable {
        /// A number (the case's only array element): as a count (`completed`), its value or `nil`
        /// for out-of-range; as an `attrs` value, its nearest double or `nil` for invalid-attrs; as `v`.
        case number(count: Double?, attribute: Double?, version: Outcome)
        /// A string (the case's only array element): the text it reads as in `message`, and what it
        /// gives as an `attrs` key.
        case string(message: String, attributeKey: Outcome)
        /// An object: what it gives as `attrs`.
        case attributes(Outcome)
    }

    struct Row: Hashable, CustomTestStringConvertible {
        var name: String
        /// As the value of an unknown field.
        var embedded: Outcome
        /// As a line of its own.
        var line: Outcome
        var use: Use?

        var testDescription: String { name }
    }

    private static let notUTF8 = Outcome.text(.invalidUTF8)
    private static let notAnObject = Outcome.text(.notAnObject)
    /// §8: a lone surrogate in an `attrs` key reads as U+FFFD, as in a title.
    private static let surrogateKey = Outcome.event
    private static let newerVersion = Outcome.ignored(.unsupportedVersion)
    private static let notAVersion = Outcome.invalid(.invalidValue)

    /// Numbers beyond a double: valid JSON, range-checked on their digits as counts (§3).
    private static func number(_ name: String, count: Double?, attribute: Double?, version: Outcome) -> Row {
        Row(
            name: name, embedded: .event, line: notAnObject,
            use: .number(count: count, attribute: attribute, version: version))
    }

    /// Lone surrogate escapes: valid JSON, read as U+FFFD in a value and in an `attrs` key.
    private static func surrogate(_ name: String, reads message: String) -> Row {
        Row(
            name: name, embedded: .event, line: notAnObject,
            use: .string(message: message, attributeKey: surrogateKey))
    }

    /// Bytes that are not UTF-8: the whole line is text, wherever they stand.
    private static func invalidUTF8(_ name: String) -> Row {
        Row(name: name, embedded: notUTF8, line: notUTF8)
    }

    static let table: [Row] = [
        number("i_number_double_huge_neg_exp", count: 0, attribute: 0, version: notAVersion),  // 123.456e-789
        number("i_number_huge_exp", count: nil, attribute: nil, version: newerVersion),  // 0.4e00669999…
        number("i_number_neg_int_huge_exp", count: nil, attribute: nil, version: notAVersion),  // -1e+9999
        number("i_number_pos_double_huge_exp", count: nil, attribute: nil, version: newerVersion),  // 1.5e+9999
        number("i_number_real_neg_overflow", count: nil, attribute: nil, version: notAVersion),  // -123123e100000
        number("i_number_real_pos_overflow", count: nil, attribute: nil, version: newerVersion),  // 123123e100000
        number("i_number_real_underflow", count: 0, attribute: 0, version: notAVersion),  // 123e-10000000
        number(
            "i_number_too_big_neg_int", count: nil, attribute: -123_123_123_123_123_123_123_123_123_123.0,
            version: notAVersion),
        number(
            "i_number_too_big_pos_int", count: nil, attribute: 100_000_000_000_000_000_000.0, version: newerVersion),
        number(
            "i_number_very_big_negative_int", count: nil,
            attribute: -237_462_374_673_276_894_279_832_749_832_423_479_823_246_327_846.0, version: notAVersion),

        Row(
            name: "i_object_key_lone_2nd_surrogate", embedded: .event, line: .text(.missingField),
            use: .attributes(surrogateKey)),
        surrogate("i_string_1st_surrogate_but_2nd_missing", reads: "\u{FFFD}"),
        surrogate("i_string_1st_valid_surrogate_2nd_invalid", reads: "\u{FFFD}\u{1234}"),
        surrogate("i_string_incomplete_surrogate_and_escape_valid", reads: "\u{FFFD}\n"),
        surrogate("i_string_incomplete_surrogate_pair", reads: "\u{FFFD}a"),
        surrogate("i_string_incomplete_surrogates_escape_valid", reads: "\u{FFFD}\u{FFFD}\n"),
        surrogate("i_string_invalid_lonely_surrogate", reads: "\u{FFFD}"),
        surrogate("i_string_invalid_surrogate", reads: "\u{FFFD}abc"),
        surrogate("i_string_inverted_surrogates_U+1D11E", reads: "\u{FFFD}\u{FFFD}"),
        surrogate("i_string_lone_second_surrogate", reads: "\u{FFFD}"),

        invalidUTF8("i_string_UTF-16LE_with_BOM"),
        invalidUTF8("i_string_UTF-8_invalid_sequence"),
        invalidUTF8("i_string_UTF8_surrogate_U+D800"),
        invalidUTF8("i_string_invalid_utf-8"),
        invalidUTF8("i_string_iso_latin_1"),
        invalidUTF8("i_string_lone_utf8_continuation_byte"),
        invalidUTF8("i_string_not_in_unicode_range"),
        invalidUTF8("i_string_overlong_sequence_2_bytes"),
        invalidUTF8("i_string_overlong_sequence_6_bytes"),
        invalidUTF8("i_string_overlong_sequence_6_bytes_null"),
        invalidUTF8("i_string_truncated-utf-8"),
        invalidUTF8("i_string_utf16BE_no_BOM"),
        invalidUTF8("i_string_utf16LE_no_BOM"),

        // 500 levels, past the limit of 100 wherever they stand.
        Row(name: "i_structure_500_nested_arrays", embedded: .text(.invalidJSON), line: .text(.invalidJSON)),
        // A byte order mark is not white space, before the line's object or before a nested value.
        Row(name: "i_structure_UTF-8_BOM_empty_object", embedded: .text(.invalidJSON), line: .text(.invalidJSON)),
    ]

    let decoder = ActivityEventDecoder()

    @Test("The table has exactly one row per i_ file")
    func complete() {
        #expect(Self.table.map(\.name).sorted() == JSONTestSuite.names("i_"))
        #expect(Set(Self.table.map(\.name)).count == Self.table.count)
    }

    @Test("An i_ case gets its outcome in a field, as a line and where its value means something", arguments: table)
    func outcome(_ row: Row) throws {
        let bytes = try JSONTestSuite.bytes(row.name)
        let embedded = JSONTestSuite.embedded(bytes)
        #expect(Outcome(decoder.decode(embedded)) == row.embedded, "\(row.name) in a field")
        #expect(Outcome(decoder.decode(bytes)) == row.line, "\(row.name) as a line")
        if !bytes.contains(JSONTestSuite.lineFeed) {
            #expect(try JSONTestSuite.streamLines(embedded).map(Outcome.init) == [row.embedded], "\(row.name)")
        }

        // The value inside the case's one-element array.
        let inner = Array(bytes.dropFirst().dropLast())
        switch row.use {
        case .number(let count, let attribute, let version):
            let progress = decoder.decode(
                Array(#"{"v":1,"type":"progress","id":"a","completed":"#.utf8) + inner + Array("}".utf8))
            if let count {
                #expect(progress == .event(.progress(.init(id: ActivityID("a")!, completed: count))), "\(row.name)")
            } else {
                #expect(Outcome(progress) == .invalid(.outOfRange), "\(row.name) as a count")
            }
            let begin = decoder.decode(
                Array(#"{"v":1,"type":"begin","id":"a","title":"t","attrs":{"x-n":"#.utf8) + inner + Array("}}".utf8))
            if let attribute {
                guard case .event(.begin(let event)) = begin else {
                    Issue.record("\(row.name) as an attrs value: \(begin)")
                    return
                }
                #expect(event.attributes == ["x-n": .number(attribute)], "\(row.name)")
            } else {
                #expect(Outcome(begin) == .invalid(.invalidAttrs), "\(row.name) as an attrs value")
            }
            let versioned = decoder.decode(Array(#"{"v":"#.utf8) + inner + Array(#","type":"log","message":"m"}"#.utf8))
            #expect(Outcome(versioned) == version, "\(row.name) as v")
        case .string(let message, let attributeKey):
            let log = decoder.decode(Array(#"{"v":1,"type":"log","message":"#.utf8) + inner + Array("}".utf8))
            guard case .event(.log(let event)) = log else {
                Issue.record("\(row.name) as a message: \(log)")
                return
            }
            #expect(Array(event.message.utf8) == Array(message.utf8), "\(row.name) as a message")
            let begin = decoder.decode(
                Array(#"{"v":1,"type":"begin","id":"a","title":"t","attrs":{"#.utf8) + inner + Array(":1}}".utf8))
            #expect(Outcome(begin) == attributeKey, "\(row.name) as an attrs key")
            if case .event(.begin(let event)) = begin {
                #expect(
                    event.attributes.keys.map { Array($0.rawValue.utf8) } == [Array(message.utf8)],
                    "\(row.name) as a key")
            }
        case .attributes(let outcome):
            let begin = decoder.decode(
                Array(#"{"v":1,"type":"begin","id":"a","title":"t","attrs":"#.utf8) + bytes + Array("}".utf8))
            #expect(Outcome(begin) == outcome, "\(row.name) as attrs")
        case nil:
            break
        }
    }
}

@Suite("JSON limits: nesting depth and line length")
struct JSONLimitTests {
    let decoder = ActivityEventDecoder()

    private func nested(_ open: String, _ close: String, _ levels: Int, around core: String = "1") -> String {
        String(repeating: open, count: levels) + core + String(repeating: close, count: levels)
    }

    @Test("The line's own object is level 1: a field may nest 99 more levels, not 100")
    func depthInAnEvent() {
        let arrays = { (levels: Int) in #"{"v":1,"type":"log","message":"m","x":"# + self.nested("[", "]", levels) + "}"
        }
        #expect(decoder.decode(arrays(99)) == JSONTestSuite.embeddedEvent)
        #expect(Outcome(decoder.decode(arrays(100))) == .text(.invalidJSON))
        let objects = { (levels: Int) in
            #"{"v":1,"type":"log","message":"m","x":"# + self.nested(#"{"a":"#, "}", levels) + "}"
        }
        #expect(decoder.decode(objects(99)) == JSONTestSuite.embeddedEvent)
        #expect(Outcome(decoder.decode(objects(100))) == .text(.invalidJSON))
        // The same limit in attrs, where the nested value is refused only once it is JSON at all.
        let attrs = { (levels: Int) in
            #"{"v":1,"type":"begin","id":"a","title":"t","attrs":{"x":"# + self.nested("[", "]", levels) + "}}"
        }
        #expect(Outcome(decoder.decode(attrs(98))) == .invalid(.invalidAttrs))
        #expect(Outcome(decoder.decode(attrs(99))) == .text(.invalidJSON))
    }

    @Test("A line that is an array or an object without \"v\" may nest 100 levels, not 101")
    func depthInText() {
        #expect(Outcome(decoder.decode(nested("[", "]", 100))) == .text(.notAnObject))
        #expect(Outcome(decoder.decode(nested("[", "]", 101))) == .text(.invalidJSON))
        #expect(Outcome(decoder.decode(nested(#"{"a":"#, "}", 100))) == .text(.missingField))
        #expect(Outcome(decoder.decode(nested(#"{"a":"#, "}", 101))) == .text(.invalidJSON))
    }

    @Test("Every case fits the line limit except two n_ cases, which are skipped unread")
    func length() {
        let long = (JSONTestSuite.names("n_") + JSONTestSuite.names("y_") + JSONTestSuite.names("i_")).filter {
            ((try? JSONTestSuite.bytes($0).count) ?? 0) > WireLimits.maxAcceptedLineBytes
        }
        #expect(long == ["n_structure_100000_opening_arrays", "n_structure_open_array_object"])
    }
}
