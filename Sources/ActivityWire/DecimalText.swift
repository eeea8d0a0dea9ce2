/// Numbers written for people, the same in the live display, the logs and the reports: fixed
/// decimals and sizes in binary units. No Foundation, so the text never depends on `LC_NUMERIC`.
///
/// ```swift
/// DecimalText.fixed(3.14159, decimals: 2)   // "3.14"
/// DecimalText.bytes(1536)                    // "1.50 KiB"
/// DecimalText.bytes(1536, perSecond: true)   // "1.50 KiB/s"
/// ```
package enum DecimalText {
    /// The number `bytes` hold when it is a plain decimal (`42`, `130.5`, `1764417600.123`: no
    /// sign, no exponent, at most 15 digits, or 16 below 2^53), read as the decoder reads a count
    /// and correctly rounded; `nil` for anything else, which a caller reads another way.
    package static func plain(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var scanner = JSONScanner(bytes)
        guard let value = scanner.shortCount(), scanner.atEnd else { return nil }
        return value
    }

    /// `value` with exactly `decimals` digits after the point, rounded half away from zero; `?`
    /// for NaN, `∞` or `-∞` for the infinities.
    package static func fixed(_ value: Double, decimals: Int) -> String {
        withFixed(value, decimals: decimals, suffix: UnsafeBufferPointer(start: nil, count: 0)) {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// ``fixed(_:decimals:)`` followed by the ASCII byte `suffix` unless it is 0.
    package static func fixed(_ value: Double, decimals: Int, suffix: UInt8) -> String {
        guard suffix != 0 else { return fixed(value, decimals: decimals) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { byte in
            byte[0] = suffix
            return withFixed(value, decimals: decimals, suffix: UnsafeBufferPointer(byte)) {
                String(decoding: $0, as: UTF8.self)
            }
        }
    }

    /// ``fixed(_:decimals:)`` followed by `suffix`.
    package static func fixed(_ value: Double, decimals: Int, suffix: String) -> String {
        var suffix = suffix
        return suffix.withUTF8 { suffix in
            withFixed(value, decimals: decimals, suffix: suffix) { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Appends the UTF-8 of ``fixed(_:decimals:)``, then the ASCII byte `suffix` unless it is 0.
    package static func appendFixed(_ value: Double, decimals: Int, suffix: UInt8 = 0, to bytes: inout [UInt8]) {
        let decimals = min(max(0, decimals), 9)
        guard let integer = scaledMagnitude(value, decimals: decimals) else {
            withFixed(value, decimals: decimals, suffix: UnsafeBufferPointer(start: nil, count: 0)) {
                bytes.append(contentsOf: $0)
            }
            if suffix != 0 { bytes.append(suffix) }
            return
        }
        // The hot path of every line's numbers (a count, a rate, a percentage): a few bytes,
        // appended one by one from the stack, which is cheaper than a copy of so few.
        if value < 0 && integer != 0 { bytes.append(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            let start = writeDigits(integer, decimals: decimals, into: buffer, before: buffer.count)
            for index in start..<buffer.count { bytes.append(buffer[index]) }
        }
        if suffix != 0 { bytes.append(suffix) }
    }

    /// Calls `body` with the UTF-8 of the number followed by `suffix`. The digits are written
    /// into a buffer on the stack, so a short text or an append is made without an allocation.
    private static func withFixed<Result>(
        _ value: Double, decimals: Int, suffix: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        guard value.isFinite else {
            var text = (value.isNaN ? "?" : (value < 0 ? "-∞" : "∞")) + String(decoding: suffix, as: UTF8.self)
            return text.withUTF8(body)
        }
        let decimals = min(max(0, decimals), 9)
        guard let integer = scaledMagnitude(value, decimals: decimals) else {
            // Whole at this size; past UInt64 (never a count, which stops at 2^53) as Swift
            // writes it, `1e+20`, rather than a trap.
            let digits = abs(value) < 1.8e19 ? String(UInt64(saturating: abs(value))) : "\(abs(value))"
            var text = (value < 0 ? "-" : "") + digits + String(decoding: suffix, as: UTF8.self)
            return text.withUTF8(body)
        }
        // Written backwards from the end: suffix, the digits with their point, the sign.
        let capacity = 32 + suffix.count
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var position = capacity - suffix.count
            for (offset, byte) in suffix.enumerated() { buffer[position + offset] = byte }
            position = writeDigits(
                integer, decimals: decimals, into: UnsafeMutableRawBufferPointer(buffer), before: position)
            if value < 0 && integer != 0 {
                position -= 1
                buffer[position] = UInt8(ascii: "-")
            }
            return body(UnsafeBufferPointer(rebasing: buffer[position..<capacity]))
        }
    }

    /// `abs(value)` times 10^`decimals`, rounded half away from zero as `rounded()` does, while it
    /// is below 9e18; `nil` past that, for NaN and for the infinities (`!(a < b)` is also true for
    /// NaN). Without a call into libm: above 2^52 the product is whole and `rest` is 0; below,
    /// `scaled - Double(whole)` is exact.
    @inline(__always)
    private static func scaledMagnitude(_ value: Double, decimals: Int) -> UInt64? {
        let scaled = abs(value) * JSONScanner.powersOfTen[decimals]
        guard scaled < 9.0e18 else { return nil }
        let whole = UInt64(scaled)
        let rest = scaled - Double(whole)
        return rest >= 0.5 ? whole + 1 : whole
    }

    /// Writes the digits of `integer` backwards into `buffer`, ending before `end`, its last
    /// `decimals` after a point (at most 20 digits and the point); returns where they start.
    /// Dividing by a constant is a multiplication.
    @inline(__always)
    private static func writeDigits(
        _ integer: UInt64, decimals: Int, into buffer: UnsafeMutableRawBufferPointer, before end: Int
    ) -> Int {
        var position = end
        var remaining = integer
        if decimals > 0 {
            for _ in 0..<decimals {
                position -= 1
                buffer[position] = UInt8(truncatingIfNeeded: remaining % 10) &+ 0x30
                remaining /= 10
            }
            position -= 1
            buffer[position] = UInt8(ascii: ".")
        }
        repeat {
            position -= 1
            buffer[position] = UInt8(truncatingIfNeeded: remaining % 10) &+ 0x30
            remaining /= 10
        } while remaining > 0
        return position
    }

    /// How many decimals give three significant digits: `1.23`, `12.3`, `123`.
    package static func significantDecimals(_ value: Double) -> Int {
        value < 9.995 ? 2 : value < 99.95 ? 1 : 0
    }

    /// Three significant digits: `1.23`, `12.3`, `123`.
    package static func significant(_ value: Double) -> String {
        fixed(value, decimals: significantDecimals(value))
    }

    /// Bytes in binary units, whole bytes below a KiB and three significant digits above:
    /// `512 B`, `1.50 KiB`, `12.3 MiB`, `400 GiB`; `perSecond` adds `/s`. Negative counts are 0.
    package static func bytes(_ value: Double, perSecond: Bool = false) -> String {
        withBytes(value, perSecond: perSecond) { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends the UTF-8 of ``bytes(_:perSecond:)`` to `bytes`.
    package static func appendBytes(_ value: Double, perSecond: Bool = false, to bytes: inout [UInt8]) {
        withBytes(value, perSecond: perSecond) { bytes.append(contentsOf: $0) }
    }

    /// How ``bytes(_:perSecond:)`` writes `value`: the amount in its unit, its decimals and the
    /// unit's index (B, KiB, MiB…).
    package static func bytesForm(_ value: Double) -> (amount: Double, decimals: Int, unit: Int) {
        var amount = max(0, value)
        var index = 0
        while amount >= 1024, index < byteUnits.count - 1 {
            amount /= 1024
            index += 1
        }
        return (amount, index == 0 ? 0 : significantDecimals(amount), index)
    }

    /// What ``fixed(_:decimals:)`` shows of `value`: the digits as one whole number. Equal for two
    /// values (and equal `decimals`) exactly when their texts are.
    package static func shownDigits(_ value: Double, decimals: Int) -> Double {
        (value * JSONScanner.powersOfTen[min(max(0, decimals), 9)]).rounded()
    }

    private static func withBytes<Result>(
        _ value: Double, perSecond: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        let form = bytesForm(value)
        let unit = perSecond ? byteRateUnits[form.unit] : byteUnits[form.unit]
        return unit.withUnsafeBufferPointer { withFixed(form.amount, decimals: form.decimals, suffix: $0, body) }
    }

    private static let byteUnits = [" B", " KiB", " MiB", " GiB", " TiB", " PiB"].map { Array($0.utf8) }
    private static let byteRateUnits = [" B/s", " KiB/s", " MiB/s", " GiB/s", " TiB/s", " PiB/s"].map {
        Array($0.utf8)
    }
}
