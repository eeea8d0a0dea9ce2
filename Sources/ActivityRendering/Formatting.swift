import ActivityTerminal
import ActivityWire

/// Number, size, rate, duration and timestamp formats shared by the renderers. No Foundation:
/// the module formats its own numbers, so output never depends on `LC_NUMERIC`.
package enum Formatting {
    /// `value` with exactly `decimals` digits after the point (see ``DecimalText``).
    package static func fixed(_ value: Double, decimals: Int) -> String {
        DecimalText.fixed(value, decimals: decimals)
    }

    /// ``fixed(_:decimals:)`` followed by the ASCII byte `suffix` unless it is 0.
    static func fixed(_ value: Double, decimals: Int, suffix: UInt8) -> String {
        DecimalText.fixed(value, decimals: decimals, suffix: suffix)
    }

    /// ``fixed(_:decimals:)`` followed by `suffix`.
    static func fixed(_ value: Double, decimals: Int, suffix: String) -> String {
        DecimalText.fixed(value, decimals: decimals, suffix: suffix)
    }

    /// The decimal digits of a non-negative integer. Below 10,000 from a table, so the small
    /// numbers every frame shows cost no conversion.
    static func digits(_ value: Int64) -> String {
        if value >= 0 && value < 10_000 { return smallNumbers[Int(value)] }
        guard value > 0 else { return String(value) }
        let low = Int(value % 10_000)
        var tail = smallNumbers[low]
        while tail.utf8.count < 4 { tail = "0" + tail }
        return digits(value / 10_000) + tail
    }

    private static let smallNumbers: [String] = (0..<10_000).map { String($0) }

    /// A count: an integer when integral, else with one decimal; SI-abbreviated from ten million.
    package static func count(_ value: Double) -> String {
        if value >= 10_000_000 {
            let units: [(Double, String)] = [(1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M")]
            for (size, suffix) in units where value >= size {
                return significant(value / size) + suffix
            }
        }
        if value == value.rounded() { return fixed(value, decimals: 0) }
        return fixed(value, decimals: value < 10 ? 2 : 1)
    }

    /// Bytes in binary units, as the reports write them: `512 B`, `1.50 KiB`, `12.3 MiB`.
    package static func bytes(_ value: Double) -> String { DecimalText.bytes(value) }

    /// `bytes(value) + "/s"`, made in one piece.
    static func bytesRate(_ value: Double) -> String { DecimalText.bytes(value, perSecond: true) }

    /// Three significant digits: `1.23`, `12.3`, `123`.
    static func significant(_ value: Double) -> String { DecimalText.significant(value) }

    /// A rate per second: `1.5 MiB/s` for bytes, `3.6/s` or `3.6 files/s` otherwise.
    package static func rate(_ perSecond: Double, unit: String?) -> String {
        if unit == "bytes" { return bytesRate(perSecond) }
        let number = rateNumber(perSecond)
        guard let unit, !unit.isEmpty else { return number + "/s" }
        return "\(number) \(unit)/s"
    }

    /// The number of a rate that is not in bytes: `3.60`, `12.5`, `140`.
    static func rateNumber(_ perSecond: Double) -> String {
        if perSecond >= 100 { return count(perSecond.rounded()) }
        if perSecond >= 10 { return fixed(perSecond, decimals: 1) }
        return fixed(perSecond, decimals: 2)
    }

    /// ``rateNumber(_:)`` followed by `suffix`, made in one piece.
    static func rateNumber(_ perSecond: Double, suffix: String) -> String {
        if perSecond >= 100 {
            let rounded = perSecond.rounded()
            // `count` of an integral value below ten million is `fixed(value, decimals: 0)`.
            guard rounded < 10_000_000 else { return count(rounded) + suffix }
            return fixed(rounded, decimals: 0, suffix: suffix)
        }
        return fixed(perSecond, decimals: perSecond >= 10 ? 1 : 2, suffix: suffix)
    }

    /// `completed/total` with the unit: `45/100 files`, `1.50 MiB/3.00 MiB`, or `45 files`.
    package static func progress(completed: Double, total: Double?, unit: String?) -> String {
        if unit == "bytes" {
            guard let total else { return bytes(completed) }
            return bytes(completed) + "/" + bytes(total)
        }
        let numbers = total.map { count(completed) + "/" + count($0) } ?? count(completed)
        guard let unit, !unit.isEmpty else { return numbers }
        return numbers + " " + unit
    }

    /// A duration: `0.4s`, `12.3s`, `1m05s`, `2h03m`.
    package static func duration(_ seconds: Double) -> String {
        let seconds = seconds.isFinite ? max(0, seconds) : 0
        if seconds < 59.95 { return fixed(seconds, decimals: 1, suffix: UInt8(ascii: "s")) }
        let whole = Int(seconds.rounded(.down))
        if whole < 3600 { return digits(Int64(whole / 60)) + "m" + twoDigits(whole % 60) + "s" }
        if whole < 360_000 { return digits(Int64(whole / 3600)) + "h" + twoDigits(whole % 3600 / 60) + "m" }
        return digits(Int64(whole / 86400)) + "d"
    }

    /// A coarse duration for an ETA: whole seconds below a minute.
    package static func eta(_ seconds: Double) -> String {
        let seconds = seconds.isFinite ? max(0, seconds) : 0
        if seconds < 60 { return digits(Int64(seconds.rounded(.up))) + "s" }
        return duration(seconds)
    }

    /// A percentage of a fraction in 0...1, right-aligned in four columns: `  7%`, `100%`.
    package static func percent(_ fraction: Double) -> String {
        percentTexts[DisplayPercent.value(fraction)]
    }

    private static let percentTexts: [String] = (0...100).map { value in
        switch value {
        case 100: "100%"
        case 10...: " " + digits(Int64(value)) + "%"
        default: "  " + digits(Int64(value)) + "%"
        }
    }

    /// An RFC 3339 UTC timestamp with milliseconds: `2026-11-29T12:03:27.123Z`.
    package static func timestamp(_ unixSeconds: Double) -> String {
        let millisecondsTotal = Int64((unixSeconds * 1000).rounded(.down))
        let days =
            millisecondsTotal >= 0 ? millisecondsTotal / 86_400_000 : (millisecondsTotal - 86_399_999) / 86_400_000
        let millisecondsOfDay = millisecondsTotal - days * 86_400_000
        let date = CivilDate(daysSinceEpoch: days).text
        let ms = millisecondsOfDay % 1000
        let secondOfDay = millisecondsOfDay / 1000
        let msText = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return "\(date)T\(twoDigits(Int(secondOfDay / 3600))):"
            + "\(twoDigits(Int(secondOfDay % 3600 / 60))):\(twoDigits(Int(secondOfDay % 60))).\(msText)Z"
    }

    static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0" + digits(Int64(value)) : digits(Int64(value))
    }
}
