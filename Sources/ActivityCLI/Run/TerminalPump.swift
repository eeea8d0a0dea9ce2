import ActivityTerminal
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `activity run`'s side of the command's pseudo-terminal: the command's output, cut by a
/// ``TerminalOutputParser`` and shown by the display; the keys typed on the real terminal, copied
/// in; the real terminal's size, copied over when it changes.
struct TerminalPump {
    let pty: PseudoTerminal
    /// The command's activity, whose message shows the line the command rewrites with `\r`.
    let root: ActivityID
    /// The real terminal in raw mode, when its keys are copied to the command.
    let keys: RawMode?
    /// The real terminal the display draws on, whose size the pty follows.
    let terminal: Int32

    private var parser = TerminalOutputParser()
    private var lastOutput = 0.0
    /// Keys read and not yet taken by the pty (a command that does not read its input).
    private var pendingKeys: [UInt8] = []
    private var status = (shown: "", latest: "", at: 0.0)
    private var nextSizeCheck = 0.0

    /// How long a partial line must sit still before it is shown as a prompt.
    static let promptDelay = 0.05
    /// How often the command's status line may change on the display.
    static let statusInterval = 0.05
    /// How often the real terminal's size is compared with the pty's.
    static let sizeInterval = 0.1
    /// The most typed keys kept for a command that does not read them.
    static let pendingKeysLimit = 64 * 1024

    init(pty: PseudoTerminal, root: ActivityID, keys: RawMode?, terminal: Int32) {
        self.pty = pty
        self.root = root
        self.keys = keys
        self.terminal = terminal
    }

    /// Whether keys wait to be written to the pty (poll it for writing).
    var hasPendingKeys: Bool { !pendingKeys.isEmpty }

    /// What the command wrote, after its adapter (if any) took its progress lines.
    mutating func show(_ bytes: [UInt8], on display: any Display) {
        lastOutput = POSIX.monotonicSeconds()
        dispatch(parser.feed(bytes), on: display)
    }

    /// The output has ended.
    mutating func finish(on display: any Display) {
        dispatch(parser.finish(), on: display)
        sendStatus(on: display, force: true)
    }

    /// Called on every turn of the poll loop: a quiet partial line becomes a prompt, the latest
    /// status goes out, a new terminal size reaches the command. Returns the milliseconds until
    /// it wants to be called again.
    mutating func tick(on display: any Display) -> Int32 {
        let now = POSIX.monotonicSeconds()
        var wait = Self.sizeInterval
        if now >= nextSizeCheck {
            pty.copySize(from: terminal)
            nextSizeCheck = now + Self.sizeInterval
            // Esc is offered only while keys reach the command and it does not read them one by one.
            display.offerCancelKey(keys != nil && pty.isInLineMode)
        }
        if parser.hasUnfinishedLine {
            let due = lastOutput + Self.promptDelay
            if now >= due {
                dispatch(parser.flushIdle(), on: display)
            } else {
                wait = min(wait, due - now)
            }
        }
        if status.latest != status.shown {
            let due = status.at + Self.statusInterval
            if now >= due { sendStatus(on: display) } else { wait = min(wait, due - now) }
        }
        return Int32(saturating: max(0, wait) * 1000, rounding: .up)
    }

    /// Reads the keys typed on the real terminal and copies them to the command, but for the
    /// display's cancel key (``takesCancelKey(_:lineMode:display:)``). Returns false when the real
    /// terminal's input has ended.
    mutating func readKeys(on display: any Display) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(0, &buffer, buffer.count)
        if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { return false }
        guard count > 0 else { return true }
        if Self.takesCancelKey(buffer[..<count], lineMode: { pty.isInLineMode }, display: display) { return true }
        if pendingKeys.count + count <= Self.pendingKeysLimit { pendingKeys += buffer[..<count] }
        writeKeys()
        return true
    }

    /// Whether the display takes `keys` as its cancel key: Esc alone in one read (an arrow key, Alt
    /// with a key or a paste arrives as Esc and more in one read, and goes to the command), while
    /// the command's terminal is in line mode (no editor, pager or line editor reads it key by
    /// key; there, Esc would be a stray `^[` in a line) and the display has something to cancel.
    static func takesCancelKey(
        _ keys: ArraySlice<UInt8>, lineMode: () -> Bool, display: any Display
    ) -> Bool {
        keys.count == 1 && keys.first == 0x1B && lineMode() && display.pressCancelKey()
    }

    /// Writes what the pty takes of the waiting keys.
    mutating func writeKeys() {
        while !pendingKeys.isEmpty {
            let written = pendingKeys.withUnsafeBytes { write(pty.master, $0.baseAddress, $0.count) }
            if written > 0 {
                pendingKeys.removeFirst(written)
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                if written < 0 && errno != EAGAIN { pendingKeys.removeAll() }  // the command is gone
                return
            }
        }
    }

    private mutating func dispatch(_ pieces: [CommandOutput], on display: any Display) {
        for piece in pieces {
            if case .status(let text) = piece {
                status.latest = text
                sendStatus(on: display, force: text.isEmpty)
            } else {
                display.commandOutput(piece)
            }
        }
    }

    /// The latest status as the command's activity's message, at most every `statusInterval`
    /// (a meter rewritten thousands of times a second is one changing line, not an event each).
    private mutating func sendStatus(on display: any Display, force: Bool = false) {
        let now = POSIX.monotonicSeconds()
        guard status.latest != status.shown, force || now >= status.at + Self.statusInterval else { return }
        status.shown = status.latest
        status.at = now
        display.handle(.progress(.init(id: root, message: status.latest, timestamp: POSIX.unixSeconds())))
    }
}
