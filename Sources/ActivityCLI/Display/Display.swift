import ActivityWire

/// Where a passed-through line goes.
enum StandardStream: Sendable {
    case standardOutput
    case standardError
}

/// What the commands draw on: a render session (terminal, plain, log, jsonl), or the overlay.
///
/// Conforming types must be safe to call from any thread. ``finish()`` ends the activities still
/// open as abandoned and leaves the terminal as it found it; it may be called more than once.
protocol Display: Sendable {
    /// Folds one event into the display.
    func handle(_ event: ActivityEvent)
    /// Folds one event read from input line `line` (named in diagnostics) into the display.
    func handle(_ event: ActivityEvent, line: Int)
    /// Prints a line that is not an event (without its newline) above the live region.
    func passthrough(_ line: [UInt8], to stream: StandardStream)
    /// Tells the person watching about a problem in the stream.
    func report(_ diagnostic: Diagnostic)
    /// Ends the display: open activities end as abandoned, the terminal is restored.
    func finish()
}

extension Display {
    /// Displays that do not name input lines in their diagnostics ignore `line`.
    func handle(_ event: ActivityEvent, line: Int) { handle(event) }
}
