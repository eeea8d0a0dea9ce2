import TestSupport
import Testing

@testable import ActivityWire

struct EventGenerator {
    var random: SplitMix64

    private static let idBytes = Array("abcXYZ0189._:@/+-".utf8)
    private static let pieces = [
        "a", "Z", " ", "é", "語", "😀", "👩‍💻", "\"", "\\", "/", "\n", "\t", "\u{01}", "\u{7F}", "\u{85}", "…",
    ]

    mutating func id() -> ActivityID {
        let length = Int.random(in: 1...20, using: &random)
        let bytes = (0..<length).map { _ in Self.idBytes.randomElement(using: &random)! }
        return ActivityID(String(decoding: bytes, as: UTF8.self))!
    }

    mutating func text() -> String {
        (0..<Int.random(in: 0...12, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
    }

    mutating func count() -> Double {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: Double(Int.random(in: 0...1000, using: &random))
        case 1: Double.random(in: 0...1e6, using: &random)
        case 2: Double(UInt64.random(in: 0...(1 << 53), using: &random))
        default: Double.random(in: 0...1e-3, using: &random)
        }
    }

    mutating func maybe<T>(_ make: (inout EventGenerator) -> T) -> T? {
        Bool.random(using: &random) ? make(&self) : nil
    }

    mutating func total() -> ActivityEvent.Total {
        Bool.random(using: &random) ? .indeterminate : .value(count())
    }

    mutating func attrs() -> [String: AttributeValue] {
        var result: [String: AttributeValue] = [:]
        for index in 0..<Int.random(in: 0...4, using: &random) {
            let value: AttributeValue =
                switch Int.random(in: 0..<3, using: &random) {
                case 0: .string(text())
                case 1: .number(Double.random(in: -1e9...1e9, using: &random))
                default: .bool(Bool.random(using: &random))
                }
            result["x-\(index)"] = value
        }
        return result
    }

    mutating func event() -> ActivityEvent {
        let ts = maybe { Double.random(in: 1.7e9...1.8e9, using: &$0.random) }
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            return .begin(
                .init(
                    id: id(), title: text(), parent: maybe { $0.id() }, total: maybe { $0.count() }, completed: count(),
                    unit: maybe { $0.text() }, message: maybe { $0.text() }, cancellable: Bool.random(using: &random),
                    blocking: ActivityEvent.Blocking.allCases.randomElement(using: &random)!, attrs: attrs(),
                    timestamp: ts))
        case 1:
            return .progress(
                .init(
                    id: id(), completed: maybe { $0.count() }, total: maybe { $0.total() },
                    message: maybe { $0.text() },
                    title: maybe { $0.text() }, timestamp: ts))
        case 2:
            return .log(
                .init(
                    message: text(), id: maybe { $0.id() },
                    level: ActivityEvent.Level.allCases.randomElement(using: &random)!,
                    timestamp: ts))
        default:
            return .end(
                .init(
                    id: id(), status: ActivityEvent.Status.allCases.randomElement(using: &random)!,
                    message: maybe { $0.text() }, error: maybe { $0.text() }, completed: maybe { $0.count() },
                    total: maybe { $0.total() }, timestamp: ts))
        }
    }
}

@Suite("Round trip")
struct RoundTripTests {
    @Test("decode(encode(e)) == e for generated events", arguments: [1, 2, 3] as [UInt64])
    func roundTrip(seed: UInt64) throws {
        var generator = EventGenerator(random: SplitMix64(seed: seed))
        let encoder = ActivityEventEncoder()
        let decoder = ActivityEventDecoder()
        for _ in 0..<3000 {
            let event = generator.event()
            let line = encoder.encode(event)
            #expect(line.count <= 4096)
            let decoded = decoder.decode(line.dropLast(), line: 1)
            #expect(decoded == .event(event), "\(String(decoding: line, as: UTF8.self))")
        }
    }

    @Test("Escaped input decodes to the same text as raw input")
    func escapes() {
        let decoder = ActivityEventDecoder()
        let escaped = decoder.decode(#"{"v":1,"type":"log","message":"\u00e9\ud83d\ude00\/\u0041","\u0069d":"a"}"#)
        #expect(escaped == .event(.log(.init(message: "é😀/A", id: ActivityID("a")))))
        let lone = decoder.decode(#"{"v":1,"type":"log","message":"\ud800x"}"#)
        #expect(lone == .event(.log(.init(message: "\u{FFFD}x"))))
    }
}

@Suite("Decoder robustness")
struct RobustnessTests {
    @Test("Random bytes and mutated events never crash the decoder")
    func fuzz() {
        var random = SplitMix64(seed: 42)
        var generator = EventGenerator(random: SplitMix64(seed: 7))
        let decoder = ActivityEventDecoder()
        let alphabet = Array(#"{}[]":,\ -+.eE0123456789truefalsnl"#.utf8) + [0x80, 0xC3, 0xA9, 0xFF, 0x00, 0x0A]
        var outcomes = Set<String>()
        for round in 0..<20_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = ActivityEventEncoder().encode(generator.event()).dropLast()
                for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = alphabet.randomElement(using: &random)!
                }
            } else {
                bytes = (0..<Int.random(in: 0...60, using: &random)).map { _ in alphabet.randomElement(using: &random)!
                }
            }
            let decoded = decoder.decode(bytes, line: round)
            outcomes.insert(decoded.diagnostic?.code.rawValue ?? "\(decoded)".prefix(5).description)
        }
        #expect(outcomes.count > 5, "the fuzzer should reach many outcomes: \(outcomes)")
    }

    @Test("Deep nesting is refused, not recursed into without bound")
    func deepNesting() {
        let deep = #"{"v":1,"type":"log","message":"x","x":"# + String(repeating: "[", count: 100_000)
        #expect(ActivityEventDecoder().decode(deep).diagnostic?.code == .invalidJSON)
    }

    @Test("Text lines are classified as text, event-shaped lines as invalid")
    func classification() {
        let decoder = ActivityEventDecoder()
        #expect(
            decoder.decode("make: Nothing to be done for 'all'.")
                == .text(.init(line: 1, code: .invalidJSON, message: "not JSON: unexpected character at byte 1")))
        if case .text = decoder.decode(#"{"level":"info","msg":"a tool's own JSON log"}"#) {
        } else {
            Issue.record("should be text")
        }
        if case .invalid = decoder.decode(#"{"v":1,"type":"begin"}"#) {} else { Issue.record("should be invalid") }
        #expect(decoder.decode("   \t") == .blank)
        #expect(decoder.decode(#"{"v":1,"type":"hello"}"#) == .ignored(nil))
    }
}

@Suite("Canonical fast path")
struct FastPathTests {
    /// Every line the encoder writes, and mutations of them (a byte changed for JSON syntax, an
    /// escape, a control byte, bytes that are not UTF-8), decode the same through the public
    /// decoder (fast path first) and the general path alone.
    @Test("The fast path never changes a result")
    func sameResults() {
        var generator = EventGenerator(random: SplitMix64(seed: 5))
        var random = SplitMix64(seed: 6)
        let decoder = ActivityEventDecoder()
        let alphabet = Array(#"{}":,-.e0129null\ "#.utf8) + [0x1F, 0x7F, 0xC3, 0xA9, 0xE2, 0xFF]
        var fastHits: [LineEvent.Kind: Int] = [:]
        for round in 0..<40_000 {
            var bytes = Array(ActivityEventEncoder().encode(generator.event()).dropLast())
            if round % 3 == 0, !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = alphabet.randomElement(using: &random)!
            }
            let general = bytes.withUnsafeBufferPointer { decoder.decodeGenerally($0, line: 1).decoded }
            #expect(decoder.decode(bytes, line: 1) == general, "\(String(decoding: bytes, as: UTF8.self))")
            if let fast = bytes.withUnsafeBufferPointer({ CanonicalFastPath.event($0) }) {
                fastHits[fast.kind, default: 0] += 1
            }
        }
        for kind in [LineEvent.Kind.begin, .progress, .log, .end] {
            #expect(fastHits[kind, default: 0] > 300, "the fast path should take the canonical \(kind) lines")
        }
    }

    @Test("An event decoded in place holds no reference and is copied inline")
    func compactEvent() {
        #expect(_isPOD(LineEvent.self), "a reference in LineEvent makes every copy retain and release")
        #expect(MemoryLayout<LineEvent>.size <= 112, "\(MemoryLayout<LineEvent>.size) bytes: copies would call memcpy")
    }

    @Test("The fast path takes what the producers write and leaves the rest to the general path")
    func shapes() {
        let taken = [
            #"{"v":1,"type":"begin","ts":1764417600.123456,"id":"a.1","parent":"a","title":"Compiling é › \"x\"","total":17,"unit":"steps"}"#,
            #"{"v":1,"type":"progress","ts":1764417600.5,"id":"a.1","completed":8,"message":"pass 1"}"#,
            #"{"v":1,"type":"log","ts":1764417600.5,"id":"a.1","level":"warning","message":"unused variable 'x'"}"#,
            #"{"v":1,"type":"end","id":"a.1","status":"failure","error":"exit 1"}"#,
        ]
        let left = [
            #"{"v":1,"type":"begin","id":"a","title":"x","blocking":"dim"}"#,
            #"{"v":1,"type":"end","id":"a","status":"abandoned"}"#,
            #"{"v":1,"type":"log","message":"no level"}"#,
            #"{"v":1,"type":"progress","id":"a","completed":-0}"#,
            #"{"v":1, "type":"progress","id":"a"}"#,
            "{\"v\":1,\"type\":\"log\",\"level\":\"info\",\"message\":\"\u{1}\"}",
        ]
        for line in taken {
            let bytes = Array(line.utf8)
            #expect(bytes.withUnsafeBufferPointer({ CanonicalFastPath.event($0) }) != nil, "\(line)")
        }
        // Not UTF-8 inside the message: the general path calls the line text.
        let notUTF8 = Array(#"{"v":1,"type":"log","level":"info","message":"caf"#.utf8) + [0xE9, 0x22, 0x7D]
        for bytes in left.map({ Array($0.utf8) }) + [notUTF8] {
            #expect(bytes.withUnsafeBufferPointer({ CanonicalFastPath.event($0) }) == nil, "\(bytes)")
        }
    }
}
