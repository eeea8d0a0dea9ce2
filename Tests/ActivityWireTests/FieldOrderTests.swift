import Foundation
import TestSupport
import Testing

@testable import ActivityWire

/// One object line split into its top-level members as written, `"key":value`, by a splitter of
/// its own (not the decoder's scanner), so the rewritten lines are made independently of what
/// they test.
struct WrittenObject {
    struct Member {
        var key: String
        var value: String
    }

    var members: [Member]

    init?(_ line: String) {
        let bytes = Array(line.utf8)
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
        var members: [Member] = []
        var i = 1
        func scanString() -> Int? {  // from an opening quote to just past the closing one
            var j = i + 1
            while j < bytes.count {
                if bytes[j] == UInt8(ascii: "\\") {
                    j += 2
                } else if bytes[j] == UInt8(ascii: "\"") {
                    return j + 1
                } else {
                    j += 1
                }
            }
            return nil
        }
        while i < bytes.count - 1 {
            guard bytes[i] == UInt8(ascii: "\""), let keyEnd = scanString() else { return nil }
            let key = String(decoding: bytes[(i + 1)..<(keyEnd - 1)], as: UTF8.self)
            guard bytes[keyEnd] == UInt8(ascii: ":") else { return nil }
            i = keyEnd + 1
            let start = i
            var depth = 0
            while i < bytes.count - 1 {
                let byte = bytes[i]
                if byte == UInt8(ascii: "\"") {
                    guard let end = scanString() else { return nil }
                    i = end
                    continue
                }
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { depth += 1 }
                if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") { depth -= 1 }
                if byte == UInt8(ascii: ","), depth == 0 { break }
                i += 1
            }
            members.append(Member(key: key, value: String(decoding: bytes[start..<i], as: UTF8.self)))
            if i < bytes.count - 1 { i += 1 }  // the comma
        }
        self.members = members
    }
}

/// Ways another producer writes the same event: each keeps the JSON value of every member and
/// changes only its spelling.
struct Respelling {
    var random: SplitMix64

    /// Whitespace JSON allows between tokens (a newline would end the line).
    mutating func space() -> String {
        ["", "", " ", "  ", "\t", " \r "].randomElement(using: &random)!
    }

    /// A string's content with some characters written as `\u` escapes (and `/` as `\/`).
    mutating func escaped(_ content: String) -> String {
        var out = ""
        var scalars = content.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            if scalar == "\\" {  // an escape as written: kept whole
                out.unicodeScalars.append(scalar)
                if let next = scalars.next() {
                    out.unicodeScalars.append(next)
                    if next == "u" { for _ in 0..<4 { scalars.next().map { out.unicodeScalars.append($0) } } }
                }
                continue
            }
            guard Int.random(in: 0..<3, using: &random) == 0 else {
                out.unicodeScalars.append(scalar)
                continue
            }
            if scalar == "/" {
                out += "\\/"
            } else {
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16)
                    let padded = String(repeating: "0", count: 4 - hex.count) + hex
                    out += "\\u" + (Bool.random(using: &random) ? padded.uppercased() : padded)
                }
            }
        }
        return out
    }

    /// The same decimal number written another way: an exponent, a shifted point, `E+`.
    mutating func number(_ text: String) -> String {
        guard !text.hasPrefix("-"), let dot = text.firstIndex(of: ".") ?? Optional(text.endIndex),
            !text.contains("e"), !text.contains("E")
        else { return text }
        let whole = String(text[..<dot])
        let fraction = dot == text.endIndex ? "" : String(text[text.index(after: dot)...])
        switch Int.random(in: 0..<4, using: &random) {
        case 0:  // 12.5 → 125e-1, 0.05 → 5e-2
            let digits = String((whole + fraction).drop { $0 == "0" })
            return "\(digits.isEmpty ? "0" : digits)e-\(fraction.count)"
        case 1: return "\(whole).\(fraction.isEmpty ? "0" : fraction)E+0"  // 12 → 12.0E+0
        case 2 where whole.count > 1 && whole.first != "0":
            let shift = whole.count - 1  // 1234.5 → 1.2345e3
            return "\(whole.prefix(1)).\(whole.dropFirst())\(fraction)e\(shift)"
        default: return text
        }
    }

    mutating func value(_ value: String) -> String {
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
            return "\"" + escaped(String(value.dropFirst().dropLast())) + "\""
        }
        if let first = value.first, first.isNumber { return number(value) }
        return value
    }

    /// The object's members in a random order, respelt.
    mutating func line(_ object: WrittenObject) -> String {
        let members = object.members.shuffled(using: &random).map { member in
            space() + "\"" + escaped(member.key) + "\"" + space() + ":" + space() + value(member.value) + space()
        }
        return space() + "{" + members.joined(separator: ",") + "}" + space()
    }
}

@Suite("Field order, whitespace, escapes and number forms")
struct FieldOrderTests {
    /// Real lines: the protocol's valid examples and captures of the reference producers, and
    /// generated events as our encoder writes them.
    static func canonicalLines() throws -> [String] {
        var generator = EventGenerator(random: SplitMix64(seed: 30))
        let generated = (0..<1500).map { _ in
            String(decoding: ActivityEventEncoder().encode(generator.event()).dropLast(), as: UTF8.self)
        }
        let captures = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Captures")
        var lines: [String] = []
        for stream in Fixtures.streams(in: Fixtures.valid) + Fixtures.streams(in: captures) {
            let text = try String(contentsOf: stream, encoding: .utf8)
            lines += text.split(separator: "\n").map(String.init)
        }
        #expect(lines.count > 300, "the captures are missing")
        return lines + generated
    }

    @Test("Every order and spelling of a line's members decodes to the line's own event")
    func respelt() throws {
        let decoder = ActivityEventDecoder()
        var respelling = Respelling(random: SplitMix64(seed: 31))
        var checked = 0
        for line in try Self.canonicalLines() {
            let expected = decoder.decode(line)
            guard case .event = expected, let object = WrittenObject(line) else { continue }
            for _ in 0..<8 {
                let other = respelling.line(object)
                #expect(decoder.decode(other) == expected, "\(line)\n  respelt as \(other)")
                checked += 1
            }
        }
        #expect(checked > 10_000)
    }

    @Test("Every permutation of a progress line's members decodes to the same event")
    func allPermutations() {
        let line = #"{"v":1,"type":"progress","ts":1764417600.25,"id":"a.1","completed":8,"message":"pass é"}"#
        let decoder = ActivityEventDecoder()
        let expected = decoder.decode(line)
        let members = WrittenObject(line)!.members.map { "\"\($0.key)\":\($0.value)" }
        var count = 0
        func permute(_ done: [String], _ rest: [String]) {
            guard !rest.isEmpty else {
                let other = "{" + done.joined(separator: ",") + "}"
                #expect(decoder.decode(other) == expected, "\(other)")
                count += 1
                return
            }
            for index in rest.indices {
                var left = rest
                let member = left.remove(at: index)
                permute(done + [member], left)
            }
        }
        permute([], members)
        #expect(count == 720)
    }

    @Test("Other producers' lines take a fast path, not the general scanner")
    func capturesTakeAFastPath() throws {
        let decoder = ActivityEventDecoder()
        let captures = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Captures")
        var taken = 0
        for stream in Fixtures.streams(in: captures) {
            for line in try String(contentsOf: stream, encoding: .utf8).split(separator: "\n") {
                let bytes = Array(line.utf8)
                let fast = bytes.withUnsafeBufferPointer { decoder.fastEvent($0) }
                #expect(fast != nil, "\(stream.lastPathComponent): \(line)")
                taken += 1
            }
        }
        #expect(taken > 300)
    }

    @Test("An event in any order reaches a consumer decoded in place, as a canonical one does")
    func readerHandsEveryEventInPlace() throws {
        let stream = Array(
            """
            {"id": "a", "title": "A", "type": "begin", "v": 1}
            plain output
            {"completed": 2, "id": "a", "ts": 5, "type": "progress", "v": 1}
            {"v":1,"type":"end","id":"a"}

            """.utf8)
        var reader = EventStreamReader(source: BytesSource(stream))
        var inPlace: [ActivityEvent] = []
        var others: [DecodedLine] = []
        try reader.forEach(events: { event, _ in inPlace.append(event.event()) }, others: { others.append($0.decoded) })
        #expect(inPlace.count == 3)
        #expect(others.count == 1)
        if case .text = others.first {} else { Issue.record("the output line should be text: \(others)") }
    }
}
