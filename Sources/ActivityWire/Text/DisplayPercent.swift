/// One rounding rule for every percentage shown (the terminal display's bars and texts, the
/// overlay, the taskbar): down, so 99.6 % never claims to be done, and 1.4 % is 1 % everywhere.
package enum DisplayPercent {
    /// `fraction` (clamped to 0…1) as a whole percentage.
    package static func value(_ fraction: Double) -> Int {
        guard fraction.isFinite else { return 0 }
        return Int(saturating: min(1, max(0, fraction)) * 100, rounding: .down)
    }
}
