/// What a JSON number's digits say about its exact value, before any rounding to a double.
///
/// Range checks need this: `9007199254740993` and `9.007199254740993e15` round to 2^53, and
/// `1e400` rounds to infinity, yet the protocol's limits are about the number written.
struct DecimalDigits {
    /// Whether the number is below zero (`-0` and `-0.0` are zero, not negative).
    private(set) var isNegative = false
    private(set) var isZero = true
    /// Whether the value is a whole number (`1.0` and `1e2` are; `1.5` and `1e-1` are not).
    private(set) var isInteger = true
    /// Whether the magnitude is above 2^53 (9007199254740992).
    private(set) var exceedsMaxCount = false

    private static let maxCountDigits = Array("9007199254740992".utf8)

    /// Reads the number in `range` of `bytes`, which ``JSONScanner/number()`` validated.
    init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        var i = range.lowerBound
        let minus = bytes[i] == UInt8(ascii: "-")
        if minus { i += 1 }
        let integerDigits = i..<Self.digitsEnd(bytes, from: i, to: range.upperBound)
        i = integerDigits.upperBound
        var fractionDigits = i..<i
        if i < range.upperBound, bytes[i] == UInt8(ascii: ".") {
            fractionDigits = (i + 1)..<Self.digitsEnd(bytes, from: i + 1, to: range.upperBound)
            i = fractionDigits.upperBound
        }
        let exponent = Self.exponent(bytes, from: i, to: range.upperBound)

        // The digits of both parts as one sequence, value = digits × 10^(exponent - fraction count).
        let all = integerDigits.count + fractionDigits.count
        func digit(_ k: Int) -> UInt8 {
            k < integerDigits.count
                ? bytes[integerDigits.lowerBound + k] : bytes[fractionDigits.lowerBound + k - integerDigits.count]
        }
        guard let first = (0..<all).first(where: { digit($0) != UInt8(ascii: "0") }) else { return }
        let last = (0..<all).last { digit($0) != UInt8(ascii: "0") }!
        isZero = false
        isNegative = minus
        // value = d[first...last] × 10^scale, the significant digits without trailing zeros.
        let significant = last - first + 1
        let scale = exponent - fractionDigits.count + (all - 1 - last)
        isInteger = scale >= 0
        // The number of digits before the decimal point: 2^53 has 16.
        let magnitude = significant + scale
        if magnitude != 16 {
            exceedsMaxCount = magnitude > 16
            return
        }
        for k in 0..<min(significant, 16) where digit(first + k) != Self.maxCountDigits[k] {
            exceedsMaxCount = digit(first + k) > Self.maxCountDigits[k]
            return
        }
        exceedsMaxCount = significant > 16  // 2^53's digits followed by more non-zero ones
    }

    private static func digitsEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var i = start
        while i < end, JSONScanner.isDigit(bytes[i]) { i += 1 }
        return i
    }

    /// The exponent after `e`, or 0 without one. Saturates far beyond any line's digit count, so
    /// `1e99999999999999999999` compares as huge instead of overflowing.
    private static func exponent(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var i = start
        guard i < end else { return 0 }
        i += 1  // the "e" or "E"
        var negative = false
        if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var value = 0
        while i < end {
            if value < 1_000_000_000 { value = value * 10 + Int(bytes[i] &- UInt8(ascii: "0")) }
            i += 1
        }
        return negative ? -value : value
    }
}
