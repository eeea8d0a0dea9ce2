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
    }
}
