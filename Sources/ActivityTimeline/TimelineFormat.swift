import ActivityWire

/// The number, duration and time formats of reports and exports. No Foundation: output never
/// depends on the locale, so the same recording always gives the same bytes.
enum TimelineFormat {
    /// `value` with exactly `decimals` digits after the point, rounded half away from zero; `0`
    /// when it is not finite (a report never shows `∞`).
    static func fixed(_ value: Double, decimals: Int) -> String {
        value.isFinite ? DecimalText.fixed(value, decimals: decimals) : "0"
    }

    /// A JSON number: integers without a fraction, others in the shortest form that reads back.
    static func json(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 9.0e15 { return String(Int64(saturating: value)) }
        return value.description
    }

    /// A duration for people: `0.42 ms`, `340 ms`, `3.21 s`, `12.3 s`, `2 m 05 s`, `1 h 02 m`.
    static func duration(_ seconds: Double) -> String {
        let seconds = seconds.isFinite ? max(0, seconds) : 0
        if seconds < 0.000_999_5 { return fixed(seconds * 1000, decimals: 2) + " ms" }
        if seconds < 0.999_5 { return fixed(seconds * 1000, decimals: 0) + " ms" }
        if seconds < 9.995 { return fixed(seconds, decimals: 2) + " s" }
        if seconds < 59.95 { return fixed(seconds, decimals: 1) + " s" }
        let whole = Int(saturating: seconds, rounding: .toNearestOrAwayFromZero)
        if whole < 3600 { return "\(whole / 60) m \(twoDigits(whole % 60)) s" }
        return "\(whole / 3600) h \(twoDigits(whole % 3600 / 60)) m"
    }

    /// A time since the start of the recording: `0`, `+340 ms`, `+2 m 05 s`.
    static func offset(_ seconds: Double) -> String {
        seconds <= 0 ? "0" : "+" + duration(seconds)
    }

    /// A count: integral values in full with thousands separated (`4,194,304`), others with two
    /// decimals.
    static func count(_ value: Double) -> String {
        guard value == value.rounded(), abs(value) < 9.0e15 else { return fixed(value, decimals: 2) }
        let digits = Array(String(Int64(saturating: abs(value))))
        var grouped = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// `completed/total unit`: `45/100 files`, `1.50 MiB/4.00 MiB`, `12 items`.
    static func progress(completed: Double, total: Double?, unit: String?) -> String {
        if unit == "bytes" { return DecimalText.bytes(completed) + (total.map { "/" + DecimalText.bytes($0) } ?? "") }
        let numbers = count(completed) + (total.map { "/" + count($0) } ?? "")
        return numbers + " " + (unit.flatMap { $0.isEmpty ? nil : $0 } ?? "items")
    }

    /// A rate: `1.50 MiB/s` for bytes, `3.60 files/s` otherwise.
    static func rate(_ perSecond: Double, unit: String?) -> String {
        if unit == "bytes" { return DecimalText.bytes(perSecond, perSecond: true) }
        let number = perSecond >= 100 ? count(perSecond.rounded()) : fixed(perSecond, decimals: perSecond >= 10 ? 1 : 2)
        return number + " " + (unit.flatMap { $0.isEmpty ? nil : $0 } ?? "items") + "/s"
    }

    /// A percentage with one decimal: `42.5%`.
    static func percent(_ part: Double, of whole: Double) -> String {
        guard whole > 0 else { return "0%" }
        return fixed(part / whole * 100, decimals: 1) + "%"
    }

    /// A UTC date and time to the second: `2023-11-14 22:13:20 UTC`.
    static func utc(_ unixSeconds: Double) -> String {
        let (date, secondOfDay) = civil(unixSeconds)
        return "\(date) \(twoDigits(secondOfDay / 3600)):\(twoDigits(secondOfDay % 3600 / 60)):"
            + "\(twoDigits(secondOfDay % 60)) UTC"
    }

    /// An RFC 3339 UTC time to the microsecond: `2023-11-14T22:13:20.000100Z`.
    static func rfc3339(_ unixSeconds: Double) -> String {
        let (date, secondOfDay) = civil(unixSeconds)
        let micros = Int(saturating: (unixSeconds - unixSeconds.rounded(.down)) * 1_000_000 + 0.5) % 1_000_000
        var fraction = String(micros)
        while fraction.count < 6 { fraction = "0" + fraction }
        return "\(date)T\(twoDigits(secondOfDay / 3600)):\(twoDigits(secondOfDay % 3600 / 60)):"
            + "\(twoDigits(secondOfDay % 60)).\(fraction)Z"
    }

    /// The date (`2023-11-14`) and the second of the day.
    private static func civil(_ unixSeconds: Double) -> (String, Int) {
        // Far enough from Int64.min that the day arithmetic below cannot overflow.
        let whole = max(-(1 << 62), Int64(saturating: unixSeconds.isFinite ? unixSeconds : 0, rounding: .down))
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = Int(whole - days * 86_400)
        return (CivilDate(daysSinceEpoch: days).text, secondOfDay)
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
