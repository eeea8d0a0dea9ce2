/// The proleptic Gregorian date of a day counted from the Unix epoch, by Howard Hinnant's
/// civil-from-days: the one calendar for the timestamps the displays, logs and exports print.
///
/// ```swift
/// CivilDate(daysSinceEpoch: 19_675).text   // "2023-11-14"
/// ```
package struct CivilDate: Equatable, Sendable {
    package var year: Int64
    package var month: Int64
    package var day: Int64

    package init(daysSinceEpoch: Int64) {
        let days = daysSinceEpoch + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// `2023-11-14`.
    package var text: String {
        "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }
}
