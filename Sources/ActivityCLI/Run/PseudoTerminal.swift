import ActivityPOSIX
import ActivityTerminal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pseudo-terminal `activity run` gives a command when its own output is a terminal: the
/// command sees a terminal (colours, line buffering, prompts, job control through the pty's line
/// discipline), sized like the real one and set up like it, while `activity` reads everything it
/// writes from the master side and draws it with the live display.
struct PseudoTerminal {
    /// The master side, non-blocking: `activity` reads the command's output and writes its keys.
    let master: Int32
    /// The slave's path, opened by the child as its controlling terminal.
    let slavePath: String

    /// Opens a pty with the size and settings of `terminal` (the real one).
    init(like terminal: Int32) throws(SystemError) {
        (master, slavePath) = try PseudoTerminalDevice.open()
        // The slave's settings are the real terminal's (erase and interrupt keys, output
        // processing), set once through a descriptor of our own; but control keys are not echoed
        // as "^C" or "^Z": the display says how the command ended or that it stopped, and an
        // echo left unfinished would hold the live region away as a prompt.
        let slave = SystemCall.open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        if slave >= 0 {
            TerminalSettings.copy(from: terminal, to: slave)
            SystemCall.close(slave)
        }
        copySize(from: terminal)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    /// Gives the pty the real terminal's size; the kernel sends SIGWINCH to the command when it
    /// changes. Returns whether it changed.
    @discardableResult
    func copySize(from terminal: Int32) -> Bool {
        var real = winsize()
        var current = winsize()
        guard ioctl(terminal, UInt(TIOCGWINSZ), &real) == 0 else { return false }
        _ = ioctl(master, UInt(TIOCGWINSZ), &current)
        guard real.ws_col != current.ws_col || real.ws_row != current.ws_row else { return false }
        return ioctl(master, UInt(TIOCSWINSZ), &real) == 0
    }

    /// Whether the command's terminal is in line mode (canonical input): no program reads it key
    /// by key, as an editor, a pager, a shell's line editor or `ssh` do, each turning line mode
    /// off. On Linux a master's settings are its slave's.
    var isInLineMode: Bool { TerminalSettings.isInLineMode(master) }

    func close() {
        SystemCall.close(master)
    }
}
