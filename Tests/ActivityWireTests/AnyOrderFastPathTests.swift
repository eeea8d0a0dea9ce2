import TestSupport
import Testing

@testable import ActivityWire

/// The any-order fast path against the general path: on every line here the public decoder (fast
/// paths first) gives what the general path alone gives, and the fast path takes the lines it is
/// for. The lines are built around what the fast path reads word by word: keys hashed from their
/// first eight bytes (and keys that share those with a protocol key), keys and texts near the end
/// of the line, whitespace runs, escapes, UTF-8 across word boundaries, numbers in every form.
@Suite("Any-order fast path")
struct AnyOrderFastPathTests {
    let decoder = ActivityEventDecoder()

    /// Decodes `line` both ways and expects the same; returns whether the any-order path took it.
    @discardableResult
    func same(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let general = bytes.withUnsafeBufferPointer { decoder.decodeGenerally($0, line: 1).decoded }
        #expect(
            decoder.decode(bytes, line: 1) == general, "\(String(decoding: bytes, as: UTF8.self))",
            sourceLocation: sourceLocation)
        return bytes.withUnsafeBufferPointer { AnyOrderFastPath.event($0) } != nil
    }

    @discardableResult
    func same(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        same(Array(line.utf8), sourceLocation: sourceLocation)
    }

    static let progressMembers = [#""id":"a.1""#, #""type":"progress""#, #""v":1"#, #""completed":3"#]

    @Test("Keys that share their first bytes with a protocol key are not taken for it, in any place")
    func nearKeys() {
        let near = [
            "vv", "i", "idx", "t", "tss", "typ", "types", "titles", "tot", "totals", "complete", "completed_",
            "completedX", "cancellabl", "cancellables", "messag", "messages", "blockin", "blockings", "attrs", "",
            "V", "Id", "v\\u0000", "\\u0076", "i\\u0064", "message\u{E9}", "\u{E9}", "status ", "lev", "levels",
            "unit\u{0}", "parent_id", "error2", "user", "ty\"", "ts\\\"",
        ]
        var kept = 0
        for key in near {
            for place in 0...Self.progressMembers.count {
                var members = Self.progressMembers
                members.insert("\"\(key)\":0", at: place)
                let line = "{" + members.joined(separator: ",") + "}"
                if same(line) { kept += 1 }
            }
        }
        // An unknown key sends the line to the general path, which ignores the key.
        #expect(kept == 0)
        #expect(same("{" + Self.progressMembers.joined(separator: ",") + "}"))
    }

    @Test("Every protocol key is found in every place, the last one close to the end of the line")
    func everyKeyEverywhere() {
        let begin = [
            #""v":1"#, #""type":"begin""#, #""id":"a.1""#, #""ts":5"#, #""parent":"a""#, #""title":"T""#,
            #""total":9"#, #""completed":1"#, #""unit":"u""#, #""message":"m""#, #""cancellable":true"#,
            #""blocking":"none""#,
        ]
        for rotation in begin.indices {
            let members = Array(begin[rotation...] + begin[..<rotation])
            #expect(same("{" + members.joined(separator: ",") + "}"))
            #expect(same("{" + members.reversed().joined(separator: ",") + "}"))
        }
        #expect(same(#"{"type":"end","id":"a","error":"e","status":"failure","v":1}"#))
        #expect(same(#"{"type":"log","message":"m","level":"debug","v":1}"#))
        #expect(same(#"{"type":"log","level":"error","message":"m","v":1}"#))
        // Short lines, so the last keys are read from words that end at the line's end.
        #expect(same(#"{"type":"log","message":"m","v":1}"#))
        #expect(same(#"{"type":"end","id":"a","v":1}"#))
        same(#"{"v":1}"#)
        same(#"{"v""#)
        same(#"{"v"#)
        same(#"{""#)
        same(#"{"type":"end","id":"a","v"#)
    }

    @Test("Any JSON whitespace between any tokens")
    func whitespace() {
        let runs = ["", " ", "  ", "\t", "\r\n", " \t \r", "\n", "        ", "         \t"]
        var taken = 0
        for (n, run) in runs.enumerated() {
            for (m, other) in runs.enumerated() {
                let line =
                    "\(run){\(other)\"v\"\(run):\(other)1\(run),\(other)\"type\"\(run):\(other)\"progress\""
                    + "\(run),\(other)\"id\"\(run):\(other)\"a\"\(run),\(other)\"completed\"\(run):\(other)2.5"
                    + "\(run),\(other)\"message\"\(run):\(other)\"x\"\(run)}\(other)"
                #expect(same(line), "\(n), \(m)")
                taken += 1
            }
        }
        #expect(taken == runs.count * runs.count)
        same("{\"v\":1,\"type\":\"progress\",\"id\":\"a\"\u{B}}")
        same("{\"v\":1,\"type\":\"progress\",\"id\":\"a\"\u{A0}}")
    }

    @Test("Every escape in a text, and every wrong one")
    func escapes() {
        let taken = [
            #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#, #"\u0041"#, #"\u00e9"#, #"\u00E9"#,
            #"\ud83d\ude00"#, #"\ud83d"#, #"\ude00"#, #"\u0000"#, #"abcdefgh\n"#, #"abcdefg\""#, #"\\\""#,
        ]
        let refused = [#"\x"#, #"\u12"#, #"\u12g4"#, #"\U0041"#, #"\"#, #"\'"#, "\u{1}", "\u{1F}", "a\tb"]
        for prefix in ["", "a", "abcdefg", "abcdefgh", "abcdefghijklmno"] {
            for escape in taken {
                let line = #"{"type":"log","message":""# + prefix + escape + #"","v":1}"#
                #expect(same(line), "\(line)")
                #expect(same(#"{"v":1,"type":"log","message":""# + prefix + escape + #""}"#))
            }
            for escape in refused {
                same(#"{"type":"log","message":""# + prefix + escape + #"","v":1}"#)
                same(#"{"v":1,"type":"log","message":""# + prefix + escape + #""}"#)
                same(#"{"v":1,"type":"log","message":""# + prefix + escape)
            }
        }
    }

    @Test("UTF-8 in a text, well formed or not, on any side of a word's edge")
    func utf8() {
        let wellFormed: [[UInt8]] = [
            [0xC3, 0xA9], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xE2, 0x80, 0x94], [0xED, 0x9F, 0xBF],
            [0xEF, 0xBF, 0xBD], [0xF0, 0x90, 0x80, 0x80], [0xF0, 0x9F, 0x98, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
        ]
        let illFormed: [[UInt8]] = [
            [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC3], [0xC3, 0x41], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xE2, 0x80], [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE], [0xFF],
            [0xF0, 0x9F, 0x98],
        ]
        for padding in 0..<10 {
            let before = Array(repeating: UInt8(ascii: "a"), count: padding)
            for (sequence, valid) in wellFormed.map({ ($0, true) }) + illFormed.map({ ($0, false) }) {
                for after in [[], [UInt8(ascii: "z")], Array("0123456789".utf8)] {
                    let text = before + sequence + after + sequence
                    let last = Array(#"{"type":"log","v":1,"message":""#.utf8) + text + Array(#""}"#.utf8)
                    let middle = Array(#"{"type":"log","message":""#.utf8) + text + Array(#"","v":1}"#.utf8)
                    #expect(same(last) == valid, "\(text)")
                    #expect(same(middle) == valid, "\(text)")
                    #expect(same(Array(#"{"v":1,"type":"log","message":""#.utf8) + text + Array(#""}"#.utf8)) == valid)
                }
            }
        }
        // Bytes above ASCII outside a text: the general path decides.
        same(Array(#"{"v":1,"type":"log","message":"m""#.utf8) + [0xC3, 0xA9] + Array("}".utf8))
        same(Array(#"{"v":1,"type":"progress","id":"a"#.utf8) + [0xC3, 0xA9] + Array(#""}"#.utf8))
        same(Array(#"{"v":1,"type":"log","#.utf8) + [0xC3, 0xA9] + Array(#"":1,"message":"m"}"#.utf8))
    }

    @Test("Counts in every number form")
    func numbers() {
        let taken = [
            "0", "3", "3.0", "3.25", "1764417600.019979", "9007199254740992", "0.5",
            "1e3", "1E+3", "1.5e-2", "2e0", "9007199254740992.0", "4503599627370496.5", "0.0000001",
        ]
        let other = [
            "-0", "-1", "-0.5", "9007199254740993", "123456789012345678", "1e400", "1e16", "00", "01", "1.", ".5", "+1",
            "1e", "1e+",
            "0x1", "NaN", "\"3\"", "true", "null", "[]", "{}",
        ]
        for number in taken + other {
            for key in ["completed", "ts", "total"] {
                let line = #"{"\#(key)":\#(number),"id":"a","type":"progress","v":1}"#
                let shown = same(line)
                if taken.contains(number) { #expect(shown, "\(line)") }
                same(#"{"id":"a","type":"progress","v":1,"\#(key)": \#(number) }"#)
                same(#"{"id":"a","type":"progress","v":1,"\#(key)":\#(number)"#)
            }
            same(#"{"v":\#(number),"id":"a","type":"progress"}"#)
        }
    }

    @Test("Every name of every enumeration, and names close to them")
    func enumerations() {
        let names = [
            "status": ["success", "failure", "cancelled", "skipped", "abandoned"],
            "level": ["debug", "info", "warning", "error"],
            "blocking": ["none", "block", "dim"],
        ]
        let near = [
            "", "succes", "successful", "Success", "cancel", "cancelledd", "abandon", "abandonedX", "warn",
            "warnings", "inf", "infos", "dimm", "di", "blocks", "non", "nones", "\\u0064im", "d\\u0069m",
            "very long name of a status", "dim\u{E9}",
        ]
        for (key, values) in names {
            let kind = key == "level" ? "log\",\"message\":\"m" : key == "status" ? "end" : "begin\",\"title\":\"t"
            for value in values {
                #expect(same(#"{"\#(key)":"\#(value)","type":"\#(kind)","id":"a","v":1}"#), "\(key) \(value)")
                #expect(same(#"{"type":"\#(kind)","id":"a","v":1,"\#(key)":"\#(value)"}"#), "\(key) \(value)")
            }
            for value in near + names.values.flatMap({ $0 }).filter({ !values.contains($0) }) {
                #expect(!same(#"{"\#(key)":"\#(value)","type":"\#(kind)","id":"a","v":1}"#), "\(key) \(value)")
                same(#"{"type":"\#(kind)","id":"a","v":1,"\#(key)":"\#(value)"#)
            }
        }
    }

    @Test("A stream of lines in canonical form and not, mixed, decodes as its lines do one by one")
    func mixedStream() throws {
        let lines = [
            #"{"v":1,"type":"begin","id":"a","title":"A"}"#,
            #"{"v":1,"type":"progress","id":"a","completed":1,"ts":5}"#,
            #"{"v":1,"type":"progress","ts":6,"id":"a","completed":2}"#,
            #"{"completed": 3, "id": "a", "ts": 7, "type": "progress", "v": 1}"#,
            "plain output",
            #"{"v":1,"type":"progress","ts":8,"id":"a","completed":4}"#,
            #"{"v":1,"type":"progress","id":"a","completed":5,"ts":9}"#,
            #"{"v":1,"type":"progress","id":"a","completed":-1,"ts":9}"#,
            #"{"v":1,"type":"end","id":"a"}"#,
        ]
        var stream: [UInt8] = []
        var expected: [DecodedLine] = []
        for round in 0..<200 {
            let line = lines[(round * 7) % lines.count]
            stream += Array(line.utf8) + [0x0A]
            expected.append(decoder.decode(line, line: round + 1))
        }
        var reader = EventStreamReader(source: BytesSource(stream))
        var decoded: [DecodedLine] = []
        try reader.forEach { decoded.append($0.decoded) }
        #expect(decoded == expected)
    }

    @Test("The word-at-a-time UTF-8 check agrees with the standard library's")
    func validation() {
        var random = SplitMix64(seed: 30)
        let pieces: [[UInt8]] = [
            [0x61], [0x7F], [0xC3, 0xA9], [0xE2, 0x80, 0x94], [0xF0, 0x9F, 0x98, 0x80], [0x80], [0xC3], [0xED, 0xA0],
            [0xF4, 0x90], [0xFF], Array("abcdefgh".utf8),
        ]
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                bytes += pieces.randomElement(using: &random)!
            }
            let expected = String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes)
            #expect(bytes.withUnsafeBufferPointer(UTF8Validation.isValid) == expected, "\(bytes)")
        }
    }
}
