import ActivityWire

/// Writes overlay states as JSON lines, one per change, for a UI in another process.
///
/// The format is `Schemas/overlay-state.v1.md` (JSON Schema: `Schemas/overlay-state.v1.schema.json`):
/// one compact object per line with `v`, `type` (`"overlay-state"`), the presentation id, the
/// model's time and every field a presentation needs. An encoder remembers the last state it wrote
/// and writes nothing when neither the state nor the announcements changed, so a stream of progress
/// events that moves nothing visible writes nothing.
///
/// ```swift
/// var encoder = OverlayStateEncoder()
/// let effects = model.reduce(input, at: now)
/// if let line = encoder.encode(model.state, time: model.time, effects: effects) {
///     write(line)   // {"v":1,"type":"overlay-state","presentation":1,"time":500,"phase":"visible",…}\n
/// }
/// ```
public struct OverlayStateEncoder: Sendable {
    private var last: OverlayState?

    /// Creates an encoder that has written nothing yet.
    public init() {}

    /// Returns the line for `state` when it differs from the last one written, or when `effects`
    /// hold announcements or a haptic; `nil` otherwise.
    public mutating func encode(_ state: OverlayState, time: Int, effects: [OverlayEffect] = []) -> [UInt8]? {
        let announcements = effects.compactMap { if case .announce(let text) = $0 { text } else { nil } }
        let haptic = effects.lazy.compactMap { if case .haptic(let h) = $0 { h } else { nil } }.last
        guard state != last || !announcements.isEmpty || haptic != nil else { return nil }
        last = state
        return Self.line(for: state, time: time, announcements: announcements, haptic: haptic)
    }

    /// The line for `state`, `\n` included, whatever was written before.
    public static func line(
        for state: OverlayState, time: Int, announcements: [String] = [], haptic: OverlayEffect.Haptic? = nil
    ) -> [UInt8] {
        var out = #"{"v":1,"type":"overlay-state""#
        out += #","presentation":\#(state.presentationID),"time":\#(time),"phase":"\#(state.phase.rawValue)""#
        out += #","visible":\#(state.isVisible),"blocksInput":\#(state.blocksInput),"dims":\#(state.dims)"#
        out += #","replacesContent":\#(state.replacesContent),"content":"\#(state.content.name)""#
        if let fraction = state.content.fraction { out += #","fraction":\#(number(fraction))"# }
        out += #","title":"# + quoted(state.title)
        out += #","message":"# + (state.message.map(quoted) ?? "null")
        out += #","cancellable":\#(state.cancel != .hidden),"cancel":"\#(state.cancel.rawValue)""#
        out += #","accessibilityLabel":"# + quoted(state.accessibilityLabel)
        out += #","accessibilityValue":"# + (state.accessibilityValue.map(quoted) ?? "null")
        if !announcements.isEmpty { out += #","announcements":[\#(announcements.map(quoted).joined(separator: ","))]"# }
        if let haptic { out += #","haptic":"\#(haptic.rawValue)""# }
        out += "}\n"
        return Array(out.utf8)
    }

    /// A fraction with at most four decimals, without exponent.
    static func number(_ value: Double) -> String {
        let scaled = Int(
            saturating: min(1, max(0, value.isFinite ? value : 0)) * 10_000, rounding: .toNearestOrAwayFromZero)
        if scaled == 10_000 { return "1" }
        if scaled == 0 { return "0" }
        var digits = String(scaled)
        digits = String(repeating: "0", count: 4 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "0." + digits
    }

    /// `text` as a JSON string, escaped as event lines are.
    static func quoted(_ text: String) -> String { JSONText.quoted(text) }
}
