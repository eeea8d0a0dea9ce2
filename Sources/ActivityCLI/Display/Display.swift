import ActivityRendering
import ActivityTerminal
import ActivityWire

/// What the commands draw on: a render session (``SessionDisplay``: the terminal, plain, log,
/// jsonl or one of the overlays, with the log file and plugins), or that session with live OTLP
/// export (``OTLPExportingDisplay``). The commands' calls are the session's own, plus the ones of
/// `activity run` (a command's terminal output, Ctrl-Z, the cancel key).
///
/// Conforming types must be safe to call from any thread. ``finish()`` ends the activities still
/// open as abandoned and leaves the terminal as it found it; it may be called more than once.
protocol Display: Sendable {
    /// Folds one event into the display.
    func handle(_ event: ActivityEvent)
    /// Folds one event read from input line `line` (named in diagnostics) into the display.
    func handle(_ event: ActivityEvent, line: Int)
    /// Folds one event decoded in place, read from input line `line`.
    func handle(_ event: borrowing LineEvent, line: Int)
    /// Folds one event that the reporter on connection `sender` sent under `activity run`; a
    /// `begin` makes `owner` the activity's owner (see ``ActivityOwner``). Returns whether it was
    /// taken (`false`: skipped as another reporter's).
    func handle(_ event: ActivityEvent, line: Int, sender: Int32, owner: ActivityOwner?) -> Bool
    /// Folds one event decoded in place that the reporter on connection `sender` sent.
    func handle(_ event: borrowing LineEvent, line: Int, sender: Int32) -> Bool
    /// Ends, as abandoned at `time`, what `owner` began (its reporter went away); returns their ids.
    func abandon(ownedBy owner: ActivityOwner, at time: Double) -> [ActivityID]
    /// The activity `id` as the display's store holds it now.
    func activity(_ id: ActivityID) -> ActivityState?
    /// Passes on output that is not an event, as it came: whole lines with their `\n`, or part
    /// of a line. Byte for byte to a file or a pipe; line by line, sanitized, on a terminal.
    func passthrough(_ bytes: [UInt8], to stream: StandardStream)
    /// Why writes to `stream` stopped: `EPIPE` when its reader went away, another `errno` when
    /// writing failed (`ENOSPC`); `nil` while it takes them.
    func writeFailure(_ stream: StandardStream) -> Int32?
    /// The log file (`--log-file`) whose writes stopped, and why (`ENOSPC`); `nil` while it takes
    /// them, or when there is none. See ``WriteFailure``.
    func logFileFailure() -> (path: String, error: Int32)?
    /// Writes the output the display gathered (``DisplayOptions/batchesOutput``); called before
    /// each read that may wait for the producer.
    func flushOutput()
    /// Whether the reader of the display has fallen behind: the command's output waits (is not
    /// read) until it has not, while reporters are still read and answered.
    var outputIsBehind: Bool { get }
    /// Shows a piece of a command's output read from its pseudo-terminal (`activity run`).
    func commandOutput(_ piece: CommandOutput)
    /// The command's output from now on belongs to the activity `id` (`nil`: to none): its last
    /// lines are shown with it.
    func attributeOutput(to id: ActivityID?)
    /// The process is about to stop (Ctrl-Z): leave the screen to the shell.
    func suspend()
    /// The process continued after a stop.
    func resume()
    /// Whether the cancel key (Esc) is offered now: the caller owns the keyboard and may give
    /// the display a key (see ``pressCancelKey()``).
    func offerCancelKey(_ offered: Bool)
    /// Esc was pressed where the display may take it. Returns whether it did (it cancels
    /// something, or a cancel is pending); when not, the key goes where it would have gone.
    func pressCancelKey() -> Bool
    /// Whether it draws a live display on a terminal: `activity run` then gives the command a
    /// pseudo-terminal of its own.
    var drawsOnTerminal: Bool { get }
    /// Tells the person watching about a problem in the stream.
    func report(_ diagnostic: Diagnostic)
    /// Tells about a problem in what the reporter on connection `sender` sent, naming it.
    func report(_ diagnostic: Diagnostic, sender: Int32)
    /// Names the reporter on connection `sender` in the problems its lines raise (`nil`: unknown).
    func name(sender: Int32, as name: String?)
    /// Ends the display: open activities end as abandoned, the terminal is restored.
    func finish()
}

extension Display {
    /// Displays that do not name input lines in their diagnostics ignore `line`.
    func handle(_ event: ActivityEvent, line: Int) { handle(event) }

    /// Displays without a fast path take the event made whole.
    func handle(_ event: borrowing LineEvent, line: Int) { handle(event.event(), line: line) }

    /// Whether the reader of `stream` has gone away (`… | head -1`), or writing to it failed:
    /// stop producing for it.
    func isClosed(_ stream: StandardStream) -> Bool { writeFailure(stream) != nil }

    /// Displays that write to no standard stream of the caller's never find one failing.
    func writeFailure(_ stream: StandardStream) -> Int32? { nil }

    /// Displays without a log file never find one failing.
    func logFileFailure() -> (path: String, error: Int32)? { nil }

    /// Displays that write at once are never behind.
    var outputIsBehind: Bool { false }

    /// Displays that write at once have nothing to flush.
    func flushOutput() {}

    /// Displays that name no source in their diagnostics ignore the name.
    func name(sender: Int32, as name: String?) {}

    /// Displays that name no source in their diagnostics report it as any other.
    func report(_ diagnostic: Diagnostic, sender: Int32) { report(diagnostic) }

    /// Displays that do not draw a command's terminal get its lines as standard output.
    func commandOutput(_ piece: CommandOutput) {
        guard case .final(let bytes, _) = piece else { return }
        var text: [UInt8] = []
        for line in CommandOutput.lines(of: bytes) { text += line + [0x0A] }
        passthrough(text, to: .stdout)
    }

    /// Displays without output tails ignore who owns the output.
    func attributeOutput(to id: ActivityID?) {}

    func suspend() {}
    func resume() {}
    /// Displays without a cancel key never take one.
    func offerCancelKey(_ offered: Bool) {}
    func pressCancelKey() -> Bool { false }
    var drawsOnTerminal: Bool { false }
}
