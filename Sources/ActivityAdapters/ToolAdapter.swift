/// Turns one tool's own progress output into activity events.
///
/// An adapter sees the tool's output one line at a time (``AdapterLine``) and decides, for each
/// line, whether it is the tool's progress (consumed: it becomes events and is not printed) or
/// ordinary output (passed through unchanged). Conforming types must guarantee:
///
/// - they never guess: a line they do not recognize returns `false` and changes nothing;
/// - they keep bounded state, whatever the input (no growing buffers or histories);
/// - they never trap on any input, including garbage, truncated and interleaved lines.
///
/// A line may be read for information and still be passed through (git's `fatal:` message,
/// wget's `Length:`): the adapter records what it learnt and returns `false`.
///
/// ```swift
/// struct CountdownAdapter: ToolAdapter {
///     mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
///         guard line.text.hasPrefix("left: "), let left = Int(line.text.dropFirst(6)) else { return false }
///         activities.update("countdown", title: "Counting down", completed: Double(10 - left), total: 10)
///         return true
///     }
/// }
/// ```
public protocol ToolAdapter {
    /// Reads one line and returns whether it was the tool's progress (consumed).
    ///
    /// - Parameters:
    ///   - line: the line, without its terminator.
    ///   - activities: the activities the adapter reports on; events are made from what it calls.
    /// - Returns: `true` when the line is consumed, `false` when it passes through unchanged.
    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool

    /// The tool's output has ended; the adapter may mark activities complete (a tool whose last
    /// line is its completion) before the open ones are ended.
    mutating func inputEnded(_ activities: inout AdaptedActivities)

    /// Reads the unfinished line at the end of a chunk, which may still grow. A tool that writes
    /// `\r` before each update (curl) ends an update only when it writes the next one, so an
    /// adapter that can tell an update is already whole takes it from here, on time; the same
    /// line is read again by ``read(_:_:)`` once it ends. It may only update activities: the line
    /// is neither consumed nor passed through yet.
    mutating func readUnfinished(_ line: AdapterLine, _ activities: inout AdaptedActivities)

    /// Reads an empty line (a `\n` alone) and returns whether it belongs to the progress: wget
    /// ends its bar with a blank line of its own, which would otherwise stay as a gap.
    mutating func readEmptyLine(_ activities: inout AdaptedActivities) -> Bool

    /// The `\r` that ended `line`, which ``read(_:_:)`` consumed, was the first half of a `\r\n`
    /// cut by a read (a pseudo-terminal writes `\r\n` for every `\n`): the line stays on screen
    /// rather than being overwritten. `line` is given again, ended by `\n`; the `\n` is
    /// consumed with it. An adapter that reads a line's end (curl's last update, wget's
    /// finished bar) reads it again here; one that takes each line the same either way ignores it.
    mutating func readNewline(ending line: AdapterLine, _ activities: inout AdaptedActivities)

    /// Read from a command's screen only: a row the command redraws, read before with text, is
    /// blank now. tqdm clears a `leave=False` bar's row when the bar closes.
    mutating func readCleared(_ place: ScreenPlace, _ activities: inout AdaptedActivities)
}

extension ToolAdapter {
    public mutating func inputEnded(_ activities: inout AdaptedActivities) {}

    public mutating func readUnfinished(_ line: AdapterLine, _ activities: inout AdaptedActivities) {}

    public mutating func readEmptyLine(_ activities: inout AdaptedActivities) -> Bool { false }

    public mutating func readNewline(ending line: AdapterLine, _ activities: inout AdaptedActivities) {}

    public mutating func readCleared(_ place: ScreenPlace, _ activities: inout AdaptedActivities) {}
}
