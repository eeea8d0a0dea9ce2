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

    /// The decimal digits of an integer.
    static func digits(_ value: Int64) -> String {
        // Exact as a double up to 2^53; a table of the small ones would cost every process
        // that shows a number 10,000 strings at its first.
        value.magnitude < 1 << 53 ? fixed(Double(value), decimals: 0) : String(value)
    }

    /// A count: an integer when integral, else with one decimal; SI-abbreviated from ten million.
    package static func count(_ value: Double) -> String {
        let form = countForm(value)
        return fixed(form.value, decimals: form.decimals, suffix: form.suffix)
    }

    /// Appends the UTF-8 of ``count(_:)`` to `bytes`.
    package static func appendCount(_ value: Double, to bytes: inout [UInt8]) {
        let form = countForm(value)
        DecimalText.appendFixed(form.value, decimals: form.decimals, suffix: form.suffix, to: &bytes)
    }

    /// How ``count(_:)`` writes `value`: the number, its decimals and the SI letter after it (0:
    /// none).
    private static func countForm(_ value: Double) -> (value: Double, decimals: Int, suffix: UInt8) {
        if value >= 10_000_000 {
            for (size, suffix) in siUnits where value >= size {
                let scaled = value / size
                return (scaled, DecimalText.significantDecimals(scaled), suffix)
            }
        }
        if value == value.rounded() { return (value, 0, 0) }
        return (value, value < 10 ? 2 : 1, 0)
    }

    private static let siUnits: [(Double, UInt8)] = [
        (1e15, UInt8(ascii: "P")), (1e12, UInt8(ascii: "T")), (1e9, UInt8(ascii: "G")), (1e6, UInt8(ascii: "M")),
    ]

    /// Bytes in binary units, as the reports write them: `512 B`, `1.50 KiB`, `12.3 MiB`.
    package static func bytes(_ value: Double) -> String { DecimalText.bytes(value) }

    /// `bytes(value) + "/s"`, made in one piece.
    static func bytesRate(_ value: Double) -> String { DecimalText.bytes(value, perSecond: true) }

    /// Three significant digits: `1.23`, `12.3`, `123`.
    static func significant(_ value: Double) -> String { DecimalText.significant(value) }

    /// A rate per second: `1.5 MiB/s` for bytes, `3.6/s` or `3.6 files/s` otherwise.
    package static func rate(_ perSecond: Double, unit: String?) -> String {
        text { appendRate(perSecond, unit: unit, to: &$0) }
    }

    /// Appends the UTF-8 of ``rate(_:unit:)`` to `bytes`.
    package static func appendRate(_ perSecond: Double, unit: String?, to bytes: inout [UInt8]) {
        if unit == "bytes" { return DecimalText.appendBytes(perSecond, perSecond: true, to: &bytes) }
        let form = rateForm(perSecond)
        DecimalText.appendFixed(form.value, decimals: form.decimals, suffix: form.suffix, to: &bytes)
        if let unit, !unit.isEmpty {
            bytes.append(0x20)
            appendUTF8(unit, to: &bytes)
        }
        bytes.append(UInt8(ascii: "/"))
        bytes.append(UInt8(ascii: "s"))
    }

    /// The number of a rate that is not in bytes: `3.60`, `12.5`, `140`.
    static func rateNumber(_ perSecond: Double) -> String {
        let form = rateForm(perSecond)
        return fixed(form.value, decimals: form.decimals, suffix: form.suffix)
    }

    /// ``rateNumber(_:)`` followed by `suffix`, made in one piece.
    package static func rateNumber(_ perSecond: Double, suffix: String) -> String {
        let form = rateForm(perSecond)
        guard form.suffix == 0 else { return fixed(form.value, decimals: form.decimals, suffix: form.suffix) + suffix }
        return fixed(form.value, decimals: form.decimals, suffix: suffix)
    }

    /// Which text ``rate(_:unit:)`` gives for `perSecond` in `unit`, as a value: equal keys, equal
    /// texts (for one unit). Lets a caller keep a rate's text until it would change.
    package static func rateKey(_ perSecond: Double, unit: String?) -> NumberKey {
        if unit == "bytes" {
            let form = DecimalText.bytesForm(perSecond)
            return NumberKey(
                digits: DecimalText.shownDigits(form.amount, decimals: form.decimals), decimals: form.decimals,
                suffix: form.unit)
        }
        let form = rateForm(perSecond)
        return NumberKey(
            digits: DecimalText.shownDigits(form.value, decimals: form.decimals), decimals: form.decimals,
            suffix: Int(form.suffix))
    }

    /// A number's text as values: its digits as one whole number, how many are decimals, and what
    /// follows them.
    package struct NumberKey: Equatable {
        var digits: Double
        var decimals: Int
        var suffix: Int
    }

    /// How a rate's number is written: from 100 on a whole ``count(_:)``, below with two
    /// decimals, or one from 10.
    private static func rateForm(_ perSecond: Double) -> (value: Double, decimals: Int, suffix: UInt8) {
        if perSecond >= 100 { return countForm(perSecond.rounded()) }
        return (perSecond, perSecond >= 10 ? 1 : 2, 0)
    }

    /// `completed/total` with the unit: `45/100 files`, `1.50 MiB/3.00 MiB`, or `45 files`.
    package static func progress(completed: Double, total: Double?, unit: String?) -> String {
        text { appendProgress(completed: completed, total: total, unit: unit, to: &$0) }
    }

    /// Appends the UTF-8 of ``progress(completed:total:unit:)`` to `bytes`.
    package static func appendProgress(completed: Double, total: Double?, unit: String?, to bytes: inout [UInt8]) {
        if unit == "bytes" {
            DecimalText.appendBytes(completed, to: &bytes)
            guard let total else { return }
            bytes.append(UInt8(ascii: "/"))
            DecimalText.appendBytes(total, to: &bytes)
            return
        }
        appendCount(completed, to: &bytes)
        if let total {
            bytes.append(UInt8(ascii: "/"))
            appendCount(total, to: &bytes)
        }
        guard let unit, !unit.isEmpty else { return }
        bytes.append(0x20)
        appendUTF8(unit, to: &bytes)
    }

    /// A duration: `0.4s`, `12.3s`, `1m05s`, `2h03m`.
    package static func duration(_ seconds: Double) -> String {
        text { appendDuration(seconds, to: &$0) }
    }

    /// Appends the UTF-8 of ``duration(_:)`` to `bytes`.
    package static func appendDuration(_ seconds: Double, to bytes: inout [UInt8]) {
        let seconds = seconds.isFinite ? max(0, seconds) : 0
        if seconds < 59.95 {
            return DecimalText.appendFixed(seconds, decimals: 1, suffix: UInt8(ascii: "s"), to: &bytes)
        }
        let whole = Int(saturating: seconds, rounding: .down)
        if whole < 3600 {
            appendDigits(whole / 60, to: &bytes)
            bytes.append(UInt8(ascii: "m"))
            appendTwoDigits(whole % 60, to: &bytes)
            bytes.append(UInt8(ascii: "s"))
        } else if whole < 360_000 {
            appendDigits(whole / 3600, to: &bytes)
            bytes.append(UInt8(ascii: "h"))
            appendTwoDigits(whole % 3600 / 60, to: &bytes)
            bytes.append(UInt8(ascii: "m"))
        } else {
            appendDigits(whole / 86400, to: &bytes)
            bytes.append(UInt8(ascii: "d"))
        }
    }

    /// Which text ``duration(_:)`` gives for `seconds`, as a number: equal keys, equal texts (tenths
    /// of a second below a minute, whole seconds above). Lets a caller keep a duration's text
    /// until it would change.
    package static func durationKey(_ seconds: Double) -> Int64 {
        let clamped = seconds.isFinite ? max(0, seconds) : 0
        return clamped < 59.95
            ? Int64(saturating: clamped * 10, rounding: .toNearestOrAwayFromZero)
            : -1 - Int64(saturating: clamped, rounding: .down)
    }

    /// A coarse duration for an ETA: whole seconds below a minute.
    package static func eta(_ seconds: Double) -> String {
        text { appendETA(seconds, to: &$0) }
    }

    /// Appends the UTF-8 of ``eta(_:)`` to `bytes`.
    package static func appendETA(_ seconds: Double, to bytes: inout [UInt8]) {
        let seconds = seconds.isFinite ? max(0, seconds) : 0
        guard seconds < 60 else { return appendDuration(seconds, to: &bytes) }
        appendDigits(Int(saturating: seconds, rounding: .up), to: &bytes)
        bytes.append(UInt8(ascii: "s"))
    }

    /// A percentage of a fraction in 0...1, right-aligned in four columns: `  7%`, `100%`.
    package static func percent(_ fraction: Double) -> String {
        percentTexts[DisplayPercent.value(fraction)]
    }

    /// Appends the UTF-8 of ``percent(_:)`` without its alignment: `7%`, `100%`.
    package static func appendPercent(_ fraction: Double, to bytes: inout [UInt8]) {
        appendPercent(value: DisplayPercent.value(fraction), to: &bytes)
    }

    private static func appendPercent(value: Int, to bytes: inout [UInt8]) {
        appendDigits(value, to: &bytes)
        bytes.append(UInt8(ascii: "%"))
    }

    private static let percentTexts: [String] = (0...100).map { value in
        let text = Formatting.text { appendPercent(value: value, to: &$0) }
        return String(repeating: " ", count: 4 - text.utf8.count) + text
    }

    /// The decimal digits of a non-negative integer.
    package static func appendDigits(_ value: Int, to bytes: inout [UInt8]) {
        DecimalText.appendFixed(Double(value), decimals: 0, to: &bytes)
    }

    /// Two digits, with a leading zero below 10.
    private static func appendTwoDigits(_ value: Int, to bytes: inout [UInt8]) {
        if value < 10 { bytes.append(UInt8(ascii: "0")) }
        appendDigits(value, to: &bytes)
    }

    /// Appends the UTF-8 of `text`: in one copy, or for a separator or a short unit byte by
    /// byte, which costs less than setting up a copy of so few.
    @inline(__always)
    static func appendUTF8(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            if utf8.count <= 4 {
                for byte in utf8 { bytes.append(byte) }
            } else {
                bytes.append(contentsOf: utf8)
            }
        }
    }

    /// The text that `body` appends, as a string: the one place a format's bytes become a
    /// `String`.
    @inline(__always)
    private static func text(_ body: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        body(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An RFC 3339 UTC timestamp with milliseconds: `2026-11-29T12:03:27.123Z`.
    package static func timestamp(_ unixSeconds: Double) -> String {
        // Far enough from Int64.min that the day arithmetic below cannot overflow.
        let millisecondsTotal = max(-(1 << 62), Int64(saturating: unixSeconds * 1000, rounding: .down))
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
