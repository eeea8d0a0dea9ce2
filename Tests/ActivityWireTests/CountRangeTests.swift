import Testing

@testable import ActivityWire

@Suite("Counts and times are range-checked on their digits")
struct CountRangeTests {
    let decoder = ActivityEventDecoder()

    /// Numbers above 2^53 (or below 0) as written, though many round to a double within range.
    static let outOfRange = [
        "9007199254740993", "9007199254740992.5", "9007199254740992.0000000000000000001", "9.007199254740993e15",
        "9.007199254740993E+15", "90071992547409921e-1", "0.9007199254740993e16", "1e16", "1e400",
        "1e999999999999999999",
        "-1", "-1e-400", "-0.0000001", "10000000000000000",
    ]

    /// Numbers within [0, 2^53] as written, some spelled to tempt a digit-by-digit reader.
    static let inRange: [(String, Double)] = [
        ("9007199254740992", 9_007_199_254_740_992), ("9007199254740992.0", 9_007_199_254_740_992),
        ("9.007199254740992e15", 9_007_199_254_740_992), ("90071992547409920e-1", 9_007_199_254_740_992),
        ("0.9007199254740992E16", 9_007_199_254_740_992), ("9007199254740991.9", 9_007_199_254_740_992),
        ("900719925474099e1", 9_007_199_254_740_990), ("1e-400", 0), ("-0", 0), ("-0.0e5", 0), ("0e999999999999", 0),
        ("1E2", 100), ("12.5", 12.5), ("0.000001", 0.000001),
    ]

    private func lines(_ number: String) -> [String] {
        [
            #"{"v":1,"type":"progress","id":"a","completed":N}"#,  // the fast path's shape
            #"{"v":1,"type":"progress","ts":N,"id":"a","completed":1}"#,
            #"{"v":1,"type":"progress","id":"a","completed":1,"total":N}"#,
            #"{"v":1,"type":"progress","id":"a","total":N,"completed":1}"#,  // the general path
            #"{"v":1,"type":"begin","id":"a","title":"t","total":N}"#,
            #"{"v":1,"type":"begin","id":"a","title":"t","completed":N}"#,
            #"{"v":1,"type":"end","id":"a","completed":N}"#,
            #"{"v":1,"type":"log","message":"m","ts":N}"#,
        ].map { $0.replacing("N", with: number) }
    }

    @Test("Above 2^53 or below 0 as written is out-of-range", arguments: outOfRange)
    func rejected(_ number: String) {
        for line in lines(number) {
            #expect(decoder.decode(line).diagnostic?.code == .outOfRange, "\(line)")
            let general = Array(line.utf8).withUnsafeBufferPointer { decoder.decodeGenerally($0, line: 1).decoded }
            #expect(general.diagnostic?.code == .outOfRange, "\(line)")
        }
    }

    @Test("Within [0, 2^53] as written is accepted, with the nearest double", arguments: inRange)
    func accepted(_ number: String, _ value: Double) throws {
        let progress = try #require(decoder.decode(lines(number)[0]).event)
        guard case .progress(let p) = progress else { throw CancellationError() }
        #expect(p.completed == value)
        #expect(p.completed?.sign == .plus, "-0 is zero, written back as 0")
        for line in lines(number) {
            #expect(decoder.decode(line).event != nil, "\(line)")
        }
    }

    @Test("Counts of up to 16 digits read in one pass are the nearest double, as the C library reads them")
    func sixteenDigits() {
        var numbers = SeededNumbers(seed: 0x2545_F491_4F6C_DD1D)
        func next() -> UInt64 { numbers.next() }
        var checked = 0
        for round in 0..<20_000 {
            let digits = String(next() % 9_007_199_254_740_993)  // up to 2^53: up to 16 digits
            let point = Int(next() % UInt64(digits.count + 1))
            var text = digits
            if point < digits.count, round % 4 != 0 {
                let index = text.index(text.startIndex, offsetBy: max(1, point))
                text.insert(".", at: index)
            }
            let bytes = Array(text.utf8)
            let value = bytes.withUnsafeBufferPointer { buffer -> Double? in
                var scanner = JSONScanner(buffer)
                guard let value = scanner.shortCount(), scanner.atEnd else { return nil }
                return value
            }
            guard let value else { continue }
            checked += 1
            #expect(value == Double(text), "\(text)")
        }
        #expect(checked > 15_000)
        let timestamp = Array("1764417600.123456".utf8).withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer)
            return scanner.shortCount()
        }
        #expect(timestamp == 1_764_417_600.123456)
    }

    @Test("Counts read eight digits at a time stop where a byte by byte reading stops, whatever follows")
    func eightAtATime() {
        var numbers = SeededNumbers(seed: 0x9E37_79B9_7F4A_7C15)
        func next(_ bound: Int) -> Int { numbers.next(bound) }
        // Mostly digits, so that runs of 8 and 16 come often, with points and exponents among
        // them; else any byte value at all (0xFA...0xFF carry and bytes below 0x30 borrow into a
        // neighbour; 0x3A...0x3F and 0xB0...0xB9 look like digits in one half).
        let marks = Array("..eE".utf8)
        func byte() -> UInt8 {
            switch next(8) {
            case 0..<5: UInt8(ascii: "0") + UInt8(next(10))
            case 5: marks[next(marks.count)]
            default: UInt8(truncatingIfNeeded: next(256))
            }
        }
        var read = 0
        var longest = 0
        for _ in 0..<100_000 {
            let bytes = (0..<next(40)).map { _ in byte() }
            let fast = bytes.withUnsafeBufferPointer { buffer -> (Double?, Int) in
                var scanner = JSONScanner(buffer)
                let value = scanner.shortCount()
                return (value, scanner.index)
            }
            #expect(fast.0 == Self.countByteByByte(bytes)?.value, "\(bytes)")
            #expect(fast.1 == Self.countByteByByte(bytes)?.end ?? 0, "\(bytes)")
            if fast.0 != nil {
                read += 1
                longest = max(longest, fast.1)
            }
        }
        #expect(read > 20_000)
        #expect(longest >= 17, "no number of 16 digits and a point was read")
    }

    /// The short count as the rules say, one byte at a time: what ``JSONScanner/shortCount()``
    /// must give.
    private static func countByteByByte(_ bytes: [UInt8]) -> (value: Double, end: Int)? {
        func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
        var i = 0
        guard i < bytes.count, isDigit(bytes[i]) else { return nil }
        var text = ""
        var digits = 0
        if bytes[i] == 0x30 {
            text = "0"
            i += 1
        } else {
            while i < bytes.count, isDigit(bytes[i]) {
                text.append(Character(UnicodeScalar(bytes[i])))
                digits += 1
                i += 1
            }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            text.append(".")
            i += 1
            let start = i
            while i < bytes.count, isDigit(bytes[i]) {
                text.append(Character(UnicodeScalar(bytes[i])))
                i += 1
            }
            guard i > start else { return nil }
            digits += i - start
        }
        guard digits <= 16, let mantissa = UInt64(text.filter { $0 != "." }),
            digits <= 15 || mantissa <= 1 << 53
        else { return nil }
        guard i == bytes.count || bytes[i] | 0x20 != UInt8(ascii: "e") else { return nil }
        return (Double(text)!, i)
    }

    @Test("\"v\" is a positive integer as written")
    func version() {
        #expect(
            decoder.decode(#"{"v":1.0000000000000001,"type":"log","message":"m"}"#).diagnostic?.code == .invalidValue)
        #expect(decoder.decode(#"{"v":0.5e1,"type":"log","message":"m"}"#).diagnostic?.code == .unsupportedVersion)
        #expect(decoder.decode(#"{"v":1e-400,"type":"log","message":"m"}"#).diagnostic?.code == .invalidValue)
        #expect(decoder.decode(#"{"v":-0,"type":"log","message":"m"}"#).diagnostic?.code == .invalidValue)
        #expect(decoder.decode(#"{"v":10e-1,"type":"log","message":"m"}"#) == .event(.log(.init(message: "m"))))
        let huge = decoder.decode(#"{"v":9007199254740993,"type":"log","message":"m"}"#).diagnostic
        #expect(huge?.code == .unsupportedVersion)
        #expect(huge?.message == "protocol version 9007199254740993 is newer than 1; line skipped")
        #expect(decoder.decode(#"{"v":1e400,"type":"log","message":"m"}"#).diagnostic?.code == .unsupportedVersion)
    }
}
