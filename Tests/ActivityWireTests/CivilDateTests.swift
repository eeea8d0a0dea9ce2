import Testing

@testable import ActivityWire

@Suite("CivilDate: days since the epoch as a Gregorian date")
struct CivilDateTests {
    @Test(
        "epoch, the day before it, leap days, century years",
        arguments: [
            (Int64(0), "1970-01-01"), (-1, "1969-12-31"), (11_016, "2000-02-29"), (19_675, "2023-11-14"),
            (47_541, "2100-03-01"), (-135_140, "1600-01-01"),
        ])
    func dates(days: Int64, expected: String) {
        #expect(CivilDate(daysSinceEpoch: days).text == expected)
    }
}
