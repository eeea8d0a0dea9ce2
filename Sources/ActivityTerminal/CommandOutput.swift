/// A piece of what a command wrote to its terminal (a pseudo-terminal of `activity run`), as the
/// display must treat it. ``TerminalOutputParser`` cuts the command's bytes into these.
///
/// Lines keep their colours (SGR sequences); every other control sequence outside the alternate
/// screen is dropped, so the command can neither move the cursor into the live region nor clear
/// it. On the alternate screen (`less`, `vim`, `htop`) the bytes are the command's alone and pass
/// untouched.
package enum CommandOutput: Equatable, Sendable {
    /// A complete line (without its line break), to print above the live region.
    case line([UInt8])
    /// More of a line that has not ended and sat still (a prompt): shown at once, where the
    /// cursor is, with the live region out of its way.
    case prompt([UInt8])
    /// The rest of a line shown as a prompt, and its end: the live region may come back below.
    /// `line` is the whole line, for displays that record lines (a log file).
    case promptEnd(rest: [UInt8], line: [UInt8])
    /// A line shown as a prompt is being rewritten from its start (`\r`): it is cleared, and its
    /// updates become a status.
    case promptCancelled
    /// The latest text of a line rewritten in place with `\r` (a progress meter): the command's
    /// current status, not a line of its own. Empty when the line has ended.
    case status(String)
    /// The command is switching to the alternate screen: the live region must leave the screen
    /// first. The switch itself comes next, in ``fullScreen(_:)``.
    case enterFullScreen
    /// Bytes written while the alternate screen is shown, as they came.
    case fullScreen([UInt8])
    /// The command left the alternate screen; these bytes end with the switch back.
    case leaveFullScreen([UInt8])
}
