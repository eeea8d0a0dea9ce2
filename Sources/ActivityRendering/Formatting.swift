import ActivityTerminal
import ActivityWire

/// Number, size, rate, duration and timestamp formats shared by the renderers. No Foundation:
/// the module formats its own numbers, so output never depends on `LC_NUMERIC`.
package enum Formatting {
    /// `value` with exactly `decimals` digits after the point, rounded half away from zero.
    package static func fixed(_ value: Double, decimals: Int) -> String {
        fixed(value, decimals: decimals, suffixBytes: UnsafeBufferPointer(start: nil, count: 0))
    }

    /// ``fixed(_:decimals:)`` followed by the ASCII byte `suffix` unless it is 0.
    static func fixed(_ value: Double, decimals: Int, suffix: UInt8) -> String {
        guard suffix != 0 else { return fixed(value, decimals: decimals, suffix: "") }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { byte in
            byte[0] = suffix
            return fixed(value, decimals: decimals, suffixBytes: UnsafeBufferPointer(byte))
        }
    }

    /// ``fixed(_:decimals:)`` followed by `suffix`.
    static func fixed(_ value: Double, decimals: Int, suffix: String) -> String {
        if let text = suffix.utf8.withContiguousStorageIfAvailable({
            fixed(value, decimals: decimals, suffixBytes: $0)
        }) {
            return text
        }
        return fixed(value, decimals: decimals, suffixBytes: UnsafeBufferPointer(start: nil, count: 0)) + suffix
    }

    /// The digits are written into a buffer on the stack, so a short result is made without an
    /// allocation.
    private static func fixed(
        _ value: Double, decimals: Int, suffixBytes suffix: UnsafeBufferPointer<UInt8>
    ) -> String {
        guard value.isFinite else {
            let text = value.isNaN ? "?" : (value < 0 ? "-∞" : "∞")
            return suffix.isEmpty ? text : text + String(decoding: suffix, as: UTF8.self)
        }
        let decimals = min(max(0, decimals), 9)
        let scaled = (abs(value) * powersOfTen[decimals]).rounded()
        guard scaled < 9.0e18 else {
            let text = String(Int64(value))
            return suffix.isEmpty ? text : text + String(decoding: suffix, as: UTF8.self)
        }
        var integer = UInt64(scaled)
        let negative = value < 0 && integer != 0
        // Written backwards from the end: suffix, fraction digits, point, integer digits, sign.
        let capacity = 32 + suffix.count
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var position = capacity - suffix.count
            for (offset, byte) in suffix.enumerated() { buffer[position + offset] = byte }
            if decimals > 0 {
                for _ in 0..<decimals {
                    position -= 1
                    buffer[position] = UInt8(truncatingIfNeeded: integer % 10) + 0x30
                    integer /= 10
                }
                position -= 1
                buffer[position] = UInt8(ascii: ".")
            }
            repeat {
                position -= 1
                buffer[position] = UInt8(truncatingIfNeeded: integer % 10) + 0x30
                integer /= 10
            } while integer > 0
            if negative {
                position -= 1
                buffer[position] = UInt8(ascii: "-")
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[position..<capacity]), as: UTF8.self)
        }
    }

    private static let powersOfTen: [Double] = (0...9).map { power in
        var scale: Int64 = 1
        for _ in 0..<power { scale *= 10 }
        return Double(scale)
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

    /// Bytes in binary units: `512 B`, `1.5 KiB`, `12.3 MiB`, `4.00 GiB`.
    package static func bytes(_ value: Double) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
        var amount = max(0, value)
        var index = 0
        while amount >= 1024, index < units.count - 1 {
            amount /= 1024
            index += 1
        }
        if index == 0 { return fixed(amount, decimals: 0) + " B" }
        return significant(amount) + " " + units[index]
    }

    /// `bytes(value) + "/s"`, made in one piece.
    static func bytesRate(_ value: Double) -> String {
        var amount = max(0, value)
        var index = 0
        while amount >= 1024, index < byteRateUnits.count - 1 {
            amount /= 1024
            index += 1
        }
        // As `bytes` then `significant` choose the digits.
        let decimals = index == 0 ? 0 : amount < 9.995 ? 2 : amount < 99.95 ? 1 : 0
        return fixed(amount, decimals: decimals, suffix: byteRateUnits[index])
    }

    private static let byteRateUnits = [" B/s", " KiB/s", " MiB/s", " GiB/s", " TiB/s", " PiB/s"]

    /// Three significant digits: `1.23`, `12.3`, `123`.
    static func significant(_ value: Double) -> String {
        if value < 9.995 { return fixed(value, decimals: 2) }
        if value < 99.95 { return fixed(value, decimals: 1) }
        return fixed(value, decimals: 0)
    }

    /// A rate per second: `1.5 MiB/s` for bytes, `3.6/s` or `3.6 files/s` otherwise.
    package static func rate(_ perSecond: Double, unit: String?) -> String {
        if unit == "bytes" { return bytes(perSecond) + "/s" }
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
