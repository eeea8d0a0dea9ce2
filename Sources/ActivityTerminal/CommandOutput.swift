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

    /// The texts of final rows (``final(bytes:rows:)``), without their styles and line breaks:
    /// one for each line feed. Final rows hold SGR sequences only, but a line of a command's
    /// output kept as it came (into a pipe, for its owner's tail) may hold any: a CSI sequence
    /// goes through its final byte, a string (`OSC`'s title) through BEL or ST, another escape
    /// through its final byte (`ESC 7`, `ESC ( B`), and a line feed ends a line wherever it
    /// comes, as a terminal executes it inside a sequence.
    package static func lines(of rows: ArraySlice<UInt8>) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var line: [UInt8] = []
        var state = SequenceState.text
        for byte in rows {
            if byte == 0x0A {
                if line.last == 0x0D { line.removeLast() }
                lines.append(line)
                line.removeAll(keepingCapacity: true)
                state = .text
                continue
            }
            switch state {
            case .text:
                if byte == 0x1B { state = .escape } else { line.append(byte) }
            case .escape:
                switch byte {
                case UInt8(ascii: "["): state = .controlSequence
                case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"): state = .string
                case 0x20...0x2F: break  // intermediates (`ESC ( B`): the final byte comes next
                default: state = .text
                }
            case .controlSequence:
                if (0x40...0x7E).contains(byte) { state = .text }
            case .string:
                // A title or another string ends at BEL, or at ST (`ESC \`, its `\` an escape's end).
                if byte == 0x07 { state = .text } else if byte == 0x1B { state = .escape }
            }
        }
        return lines
    }

    private enum SequenceState { case text, escape, controlSequence, string }

    /// ``lines(of:)-(ArraySlice<UInt8>)`` of a whole array.
    package static func lines(of rows: [UInt8]) -> [[UInt8]] { lines(of: rows[...]) }
}
