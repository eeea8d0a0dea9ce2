/// What the display must do with a command's terminal output under `activity run`, as the
/// command's ``CommandScreen`` sees it: rows that became final, the rows still being drawn, the
/// alternate screen's bytes, the modes that reach the real terminal.
///
/// Outside the alternate screen nothing the command wrote reaches the terminal as it came: the
/// display draws the command's rows itself, so the command can neither move the cursor into the
/// live region nor clear it. On the alternate screen (`less`, `vim`, `htop`) the bytes are the
/// command's alone and pass untouched.
package enum CommandOutput: Equatable, Sendable {
    /// Rows that left the command's screen, or will not change any more (see
    /// ``CommandScreen/settleableRowCount``), or stood on it when it ended: printed above the
    /// live region, once. `bytes` draw them (text and SGR, each row ending in `\r\n`);
    /// ``lines(of:)`` gives their texts.
    case final(bytes: [UInt8], rows: Int)
    /// The rows the command may still redraw, top first, without its status row (shown as the
    /// command's activity's message). With `cursor`, the command waits at a prompt on the last of
    /// them: they are drawn bare, the cursor where the command's is; without, they are drawn in
    /// the live region under the command's activity.
    case live([ScreenRow], cursor: LiveCursor?)
    /// The command's rows as its screen shows them, top first, down to the last in use (its
    /// status row and a prompt's included), and where its cursor is: what the display leaves on
    /// the screen when the process stops (Ctrl-Z), as the terminal would show the command bare.
    case standing([ScreenRow], cursor: LiveCursor)
    /// The command is switching to the alternate screen: the live region must leave the screen
    /// first. The switch itself comes next, in ``fullScreen(_:)``.
    case enterFullScreen
    /// Bytes written while the alternate screen is shown, as they came.
    case fullScreen([UInt8])
    /// The command left the alternate screen; these bytes end with the switch back.
    case leaveFullScreen([UInt8])
    /// The modes the command changed: `change` brings the real terminal to them now, `reset`
    /// turns off what is left on when the command ends or stops, `resume` turns it on again
    /// (`fg`). All three come from ``CommandScreen``, the one place that follows them.
    case modes(change: [UInt8], reset: [UInt8], resume: [UInt8])

    /// Where the cursor of a command waiting at a prompt is, in its live rows.
    package struct LiveCursor: Equatable, Sendable {
        package var row: Int
        package var column: Int
        package init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }
    }

    /// The texts of final rows (``final(bytes:rows:)``), without their styles and line breaks.
    package static func lines(of rows: ArraySlice<UInt8>) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var line: [UInt8] = []
        var inSequence = false
        for byte in rows {
            if inSequence {
                // Final rows hold SGR sequences only: `CSI` parameters, then `m`.
                if byte >= 0x40, byte != UInt8(ascii: "[") { inSequence = false }
            } else if byte == 0x1B {
                inSequence = true
            } else if byte == 0x0A {
                if line.last == 0x0D { line.removeLast() }
                lines.append(line)
                line.removeAll(keepingCapacity: true)
            } else {
                line.append(byte)
            }
        }
        return lines
    }

    /// ``lines(of:)-(ArraySlice<UInt8>)`` of a whole array.
    package static func lines(of rows: [UInt8]) -> [[UInt8]] { lines(of: rows[...]) }
}
