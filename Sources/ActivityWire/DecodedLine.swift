/// What one line of a stream turned out to be.
public enum DecodedLine: Hashable, Sendable {
    /// A valid event.
    case event(ActivityEvent)
    /// A line to skip quietly: an unknown `type` (no diagnostic), or a line of a newer protocol
    /// version (an ``Diagnostic/Code/unsupportedVersion`` warning).
    case ignored(Diagnostic?)
    /// A line that does not claim to be an event: not JSON (not UTF-8, or not well formed), not
    /// an object, or an object without a top-level `v`, whatever else it holds. `activity render`
    /// passes such lines through as the tool's own output; `activity validate` reports the
    /// diagnostic.
    case text(Diagnostic)
    /// An event that breaks the protocol. It is skipped; the stream goes on.
    case invalid(Diagnostic)
    /// An empty line, or one of white space only. Neither an event nor a problem.
    case blank

    /// The diagnostic the line carries, if any.
    public var diagnostic: Diagnostic? {
        switch self {
        case .event, .blank: nil
        case .ignored(let d): d
        case .text(let d), .invalid(let d): d
        }
    }

    /// The event, if the line is one.
    public var event: ActivityEvent? {
        if case .event(let e) = self { return e }
        return nil
    }
}
