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
        guard let functions = Self.functions else { throw SystemError("posix_openpt", code: ENOSYS) }
        let master = functions.open(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw SystemError("posix_openpt", code: errno) }
        var name = [CChar](repeating: 0, count: 128)
        guard functions.grant(master) == 0, functions.unlock(master) == 0,
            functions.name(master, &name, name.count) == 0
        else {
            let error = errno
            SystemCall.close(master)
            throw SystemError("grantpt", code: error)
        }
        self.master = master
        slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
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

    /// posix_openpt(3), grantpt(3), unlockpt(3) and ptsname_r(3), looked up at run time: the
    /// Glibc module map hides `<stdlib.h>`'s X/Open functions from Swift.
    private struct Functions {
        let open: @convention(c) (Int32) -> Int32
        let grant: @convention(c) (Int32) -> Int32
        let unlock: @convention(c) (Int32) -> Int32
        let name: @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
    }

    private static let functions: Functions? = {
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: type) }
        }
        guard let open = symbol("posix_openpt", as: (@convention(c) (Int32) -> Int32).self),
            let grant = symbol("grantpt", as: (@convention(c) (Int32) -> Int32).self),
            let unlock = symbol("unlockpt", as: (@convention(c) (Int32) -> Int32).self),
            let name = symbol(
                "ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32).self)
        else { return nil }
        return Functions(open: open, grant: grant, unlock: unlock, name: name)
    }()
}
