/// One way a renderer broke the guarantees of `ActivityRenderer`, found by
/// ``RendererConformance/check(scenarios:limits:_:)``.
public struct RendererConformanceProblem: Sendable, Hashable, CustomStringConvertible {
    /// Which guarantee was broken.
    public enum Kind: Sendable, Hashable {
        /// One call took longer than ``RendererConformance/Limits/longestCall``: a renderer never
        /// blocks for long.
        case slowCall
        /// `render(_:in:)` took longer on average than ``RendererConformance/Limits/meanRender``:
        /// it is called for every event.
        case slowRender
        /// A control sequence from the producer's text (a title, a message, a log line, passed-through
        /// output on a terminal) reached the output as it came, where it would act on a terminal.
        case unsanitizedText
        /// A terminal mode or style the renderer set (a hidden cursor, the alternate screen, a colour,
        /// the taskbar's progress) was still set when `finish(_:now:)` returned.
        case notRestored
    }

    /// The scenario the renderer was driven through (``RendererConformance/Scenario``).
    public var scenario: RendererConformance.Scenario
    public var kind: Kind
    /// What happened, for a person: the call, the text or the mode.
    public var message: String

    public init(scenario: RendererConformance.Scenario, kind: Kind, message: String) {
        self.scenario = scenario
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(scenario.rawValue): \(message)" }
}
