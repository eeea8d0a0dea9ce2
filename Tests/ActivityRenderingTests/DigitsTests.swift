import Testing

@testable import ActivityRendering

@Suite("Formatting.digits")
struct DigitsTests {
    @Test("every Int64 has its digits, the extremes and negatives included")
    func extremes() {
        for value: Int64 in [0, 7, 10_000, -42, 1 << 53, -(1 << 53), .max, .min] {
            #expect(Formatting.digits(value) == String(value))
        }
    }
}
