import Testing

@testable import ActivityWire

@Suite("DecimalText: the one number and size format of the displays, logs and reports")
struct DecimalTextTests {
    @Test(
        "bytes: whole below a KiB, three significant digits above",
        arguments: [
            (0.0, "0 B"), (-5.0, "0 B"), (512.0, "512 B"), (1023.0, "1023 B"), (1024.0, "1.00 KiB"),
            (1536.0, "1.50 KiB"), (10_240.0, "10.0 KiB"), (153_600.0, "150 KiB"), (5_242_880.0, "5.00 MiB"),
            (3_221_225_472.0, "3.00 GiB"),
        ] as [(Double, String)])
    func bytes(value: Double, expected: String) {
        #expect(DecimalText.bytes(value) == expected)
        #expect(DecimalText.bytes(value, perSecond: true) == expected + "/s")
    }

    @Test("fixed: rounding half away from zero, no negative zero, suffixes")
    func fixed() {
        #expect(DecimalText.fixed(3.14159, decimals: 2) == "3.14")
        #expect(DecimalText.fixed(2.5, decimals: 0) == "3")
        #expect(DecimalText.fixed(-2.5, decimals: 0) == "-3")
        #expect(DecimalText.fixed(-0.004, decimals: 2) == "0.00")
        #expect(DecimalText.fixed(0.05, decimals: 3) == "0.050")
        #expect(DecimalText.fixed(1.25, decimals: 1, suffix: UInt8(ascii: "s")) == "1.3s")
        #expect(DecimalText.fixed(7, decimals: 0, suffix: " files/s") == "7 files/s")
        #expect(DecimalText.fixed(.nan, decimals: 1) == "?")
        #expect(DecimalText.fixed(-.infinity, decimals: 1) == "-∞")
        // Past Int64 and UInt64: no trap.
        #expect(DecimalText.fixed(1e19, decimals: 0) == "10000000000000000000")
        #expect(DecimalText.fixed(-1e19, decimals: 2) == "-10000000000000000000")
        #expect(DecimalText.fixed(1e20, decimals: 0) == "1e+20")
    }

    /// `appendFixed` has a way of its own for the numbers of every line; it must write exactly
    /// what `fixed` writes, halves, the edges of its range and the values it leaves to `fixed`
    /// included.
    @Test("appendFixed writes what fixed writes, for every kind of value")
    func appendFixedAgreesWithFixed() {
        var values: [Double] = [
            0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 9.995, 99.95, 0.49999999999999994, 4503599627370495.5,
            4503599627370497, 8.99e18, 9.0e18, 1e19, -1e19, .nan, .infinity, -.infinity,
            .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1251.2, 17, 1_048_576,
        ]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let magnitude = Double.random(in: -3...19, using: &random)
            values.append(Double.random(in: -1...1, using: &random) * pow10(magnitude))
        }
        for value in values {
            for decimals in [0, 1, 2, 3, 9] {
                for suffix in [UInt8(0), UInt8(ascii: "M")] {
                    var bytes = Array("x".utf8)
                    DecimalText.appendFixed(value, decimals: decimals, suffix: suffix, to: &bytes)
                    let expected = "x" + DecimalText.fixed(value, decimals: decimals, suffix: suffix)
                    #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(value), \(decimals) decimals")
                }
            }
        }
    }

    private func pow10(_ exponent: Double) -> Double {
        var result = 1.0
        for _ in 0..<Int(exponent.rounded(.down).magnitude) { result *= exponent < 0 ? 0.1 : 10 }
        return result
    }
}
