import Testing

@testable import ActivityWire

/// The conversion of a `Double` gives what the generic conversion gives, for every rule, at the
/// edges of every type's range.
@Suite("Saturating conversions")
struct SaturatingIntegerTests {
    static let rules: [FloatingPointRoundingRule] = [
        .towardZero, .down, .up, .toNearestOrAwayFromZero, .toNearestOrEven, .awayFromZero,
    ]

    static let values: [Double] = [
        0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 59.95, 599.4999, 1e300, -1e300, .infinity, -.infinity, .nan,
        0x1p53, -0x1p53, 0x1p63, -0x1p63, 0x1p63 - 1024, -0x1p63 + 1024, 0x1p64, 0x1p64 - 2048, 127.5, 128, -128.5,
        255.5, 256, 2_147_483_647.5, -2_147_483_648.5, 4_294_967_295.4, Double.leastNonzeroMagnitude,
    ]

    /// The generic conversion: inside a generic function the concrete one is not chosen.
    static func generic<Value: BinaryFloatingPoint, Integer: FixedWidthInteger>(
        _ value: Value, _ rule: FloatingPointRoundingRule, as: Integer.Type
    ) -> Integer {
        Integer(saturating: value, rounding: rule)
    }

    static func agrees<Integer: FixedWidthInteger>(_ type: Integer.Type) -> [String] {
        var disagreements: [String] = []
        for value in values {
            for rule in rules where Integer(saturating: value, rounding: rule) != generic(value, rule, as: type) {
                disagreements.append("\(Integer.self)(\(value), \(rule))")
            }
        }
        return disagreements
    }

    @Test("Int, Int64, Int32, UInt64, UInt32 and UInt8 agree with the generic conversion")
    func agreesWithGeneric() {
        let disagreements =
            Self.agrees(Int.self) + Self.agrees(Int64.self) + Self.agrees(Int32.self) + Self.agrees(UInt64.self)
            + Self.agrees(UInt32.self) + Self.agrees(UInt8.self)
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    @Test("NaN is 0, out of range is the type's bound, a default rounds toward zero")
    func edges() {
        #expect(Int(saturating: Double.nan) == 0)
        #expect(Int64(saturating: 1e300) == .max)
        #expect(UInt8(saturating: -3.0) == 0)
        #expect(UInt64(saturating: 0x1p64) == .max)
        #expect(UInt64(saturating: 0x1p63) == 1 << 63)
        #expect(Int(saturating: -2.7) == -2)
        #expect(Int64(saturating: 5.95 * 10, rounding: .toNearestOrAwayFromZero) == 60)
    }
}
