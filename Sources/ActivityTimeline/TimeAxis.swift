import ActivityWire

/// The ticks of a time axis: round steps (1, 2, 5 × 10ⁿ seconds, then minutes and hours) about
/// 90 pixels apart, labelled as offsets from the start of the recording.
///
/// The report's script makes the same ticks again when the timeline is zoomed (`ReportScript`
/// mirrors ``step(for:pixels:)`` and ``label(_:step:)``).
enum TimeAxis {
    static let steps: [Double] = {
        var steps: [Double] = []
        var decade = 0.000_001
        while decade < 10 {
            steps += [decade, 2 * decade, 5 * decade]
            decade *= 10
        }
        return steps + [20, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14_400, 28_800, 86_400]
    }()

    /// The step for `duration` seconds drawn `pixels` wide.
    static func step(for duration: Double, pixels: Double) -> Double {
        let wanted = duration / max(1, pixels / 90)
        return steps.first { $0 >= wanted } ?? max(wanted, 86_400)
    }

    /// The tick offsets from 0 to `duration`.
    static func ticks(for duration: Double, pixels: Double) -> [Double] {
        guard duration > 0 else { return [0] }
        let step = step(for: duration, pixels: pixels)
        return (0...Int((duration / step).rounded(.down))).map { Double($0) * step }
    }

    /// `0`, `250 ms`, `1.5 s`, `2 m 30 s`, `1 h 30 m`.
    static func label(_ offset: Double, step: Double) -> String {
        if offset == 0 { return "0" }
        if step < 1 { return TimelineFormat.fixed(offset * 1000, decimals: decimals(step * 1000)) + " ms" }
        if offset < 60 { return TimelineFormat.fixed(offset, decimals: decimals(step)) + " s" }
        let whole = Int(saturating: offset, rounding: .toNearestOrAwayFromZero)
        if whole < 3600 { return "\(whole / 60) m \(TimelineFormat.twoDigits(whole % 60)) s" }
        return "\(whole / 3600) h \(TimelineFormat.twoDigits(whole % 3600 / 60)) m"
    }

    /// Digits after the point that a step needs: 0 for 5, 1 for 0.5, 2 for 0.02.
    private static func decimals(_ step: Double) -> Int {
        var digits = 0
        var scaled = step
        while scaled < 0.999_999, digits < 6 {
            scaled *= 10
            digits += 1
        }
        return digits
    }
}
