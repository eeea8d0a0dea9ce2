import ActivityWire

/// Which of a tool's output streams bytes came from, and where passed-through bytes go back to.
public enum AdapterStream: Hashable, Sendable {
    case standardOutput
    case standardError
}

/// What an adapter pipeline hands back for the bytes it was fed, in order.
public enum AdapterOutput: Hashable, Sendable {
    /// An activity event made from the tool's progress.
    case event(ActivityEvent)
    /// The tool's ordinary output, byte for byte as it came, for `stream`.
    case passthrough([UInt8], AdapterStream)
}
