/// The one conversion of a floating value into an integer.
///
/// A number from the wire or a file (a count, a `ts`, a duration, a rate, an ETA, a history
/// line) may be anything the spec allows, up to 2^53 and beyond once scaled (a `ts` in
/// nanoseconds, an ETA of 2^52 seconds): the standard library's `Int(_:)` traps on a value out
/// of range, which would end the process on a valid stream. This one saturates instead: NaN is
/// 0, a value below the type's range is its `min`, above it its `max`.
/// `Scripts/check-integer-conversions` keeps every other conversion out of `Sources/`.
///
/// ```swift
/// Int(saturating: 1e300)                        // Int.max
/// Int32(saturating: seconds * 1000, rounding: .up)
/// ```
extension FixedWidthInteger {
    /// `value` rounded by `rule`, clamped to `Self.min...Self.max` (NaN gives 0).
    ///
    /// - Parameters:
    ///   - value: any floating value, infinities and NaN included.
    ///   - rule: how a fractional value rounds; toward zero, as `Int(_:)` does, by default.
    @inlinable
    package init<Source: BinaryFloatingPoint>(
        saturating value: Source, rounding rule: FloatingPointRoundingRule = .towardZero
    ) {
        let rounded = value.rounded(rule)
        if rounded.isNaN {
            self = 0
        } else if rounded <= Source(Self.min) {
            self = .min
        } else if rounded >= Source(Self.max) {
            // `Source(Self.max)` rounds up to a power of two for wide types: what is below it fits.
            self = .max
        } else {
            self = Self(rounded)
        }
    }

    /// The same conversion of a `Double`, the type nearly every caller has, without the generic
    /// steps: a display line converts several (its elapsed time, a tenth of
    /// its work), and the generic conversion cost more than the rest of the line's arithmetic.
    @inlinable @inline(__always)
    package init(saturating value: Double, rounding rule: FloatingPointRoundingRule = .towardZero) {
        // Each rule spelled out: rounding by a rule the compiler knows is one instruction.
        let rounded: Double
        switch rule {
        case .towardZero: rounded = value.rounded(.towardZero)
        case .down: rounded = value.rounded(.down)
        case .up: rounded = value.rounded(.up)
        case .toNearestOrAwayFromZero: rounded = value.rounded(.toNearestOrAwayFromZero)
        case .toNearestOrEven: rounded = value.rounded(.toNearestOrEven)
        case .awayFromZero: rounded = value.rounded(.awayFromZero)
        @unknown default: rounded = value.rounded(rule)
        }
        if rounded.isNaN {
            self = 0
        } else if rounded <= Double(Self.min) {
            self = .min
        } else if rounded >= Double(Self.max) {
            self = .max
        } else if rounded > -0x1p63 && rounded < 0x1p63 {
            // Within the type's range and `Int64`'s: the conversion of the machine, exact.
            self = Self(truncatingIfNeeded: Int64(rounded))
        } else {
            self = Self(rounded)
        }
    }
}
