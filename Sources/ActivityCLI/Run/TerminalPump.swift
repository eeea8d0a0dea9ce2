import ActivityAdapters
import ActivityPOSIX
import ActivityRendering
import ActivityTerminal
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `activity run`'s side of the command's pseudo-terminal: the command's output, followed by a
/// ``CommandScreen`` of the real terminal's size and shown by the display (final rows above the
/// live region, the rows still being drawn inside it or, at a prompt, bare with the cursor); the
/// keys typed on the real terminal, copied in; the real terminal's size, copied over when it
/// changes.
///
/// A row is final when it scrolls off the command's screen, or when it has stood for
/// ``finalDelay`` more rows above the cursor than the command has ever gone back up
/// (``CommandScreen/settleableRowCount``): each line of plain output at once, all but the bars
/// of a display redrawn in place.
struct TerminalPump {
    let pty: PseudoTerminal
    /// The command's activity, whose message shows the line the command rewrites with `\r`.
    let root: ActivityID
    /// The real terminal in raw mode, when its keys are copied to the command.
    let keys: RawMode?
    /// The real terminal the display draws on, whose size the pty follows.
    let terminal: Int32

    var screen: CommandScreen
    var lastOutput = 0.0
    /// Keys read and not yet taken by the pty (a command that does not read its input).
    private var pendingKeys: [UInt8] = []
    var status = (shown: "", latest: "", at: 0.0)
    /// The latest status waits for the adapter to read the rows (``noteProgressRows(_:on:)``):
    /// a status row it takes as a bar is not the message.
    var statusAwaitsRows = false
    private var nextSizeCheck = 0.0
    /// What the display was last given: the live rows, and where the cursor of a prompt is.
    var shownLive: (rows: [ScreenRow], cursor: CommandOutput.LiveCursor?) = ([], nil)
    /// The command's rows and cursor as the display was last given them, to leave on the screen
    /// at a stop.
    var shownStanding: (rows: [ScreenRow], cursor: CommandOutput.LiveCursor?) = ([], nil)
    /// The keyboard and mouse modes and the title as the real terminal has them.
    var sentInput = (modes: TerminalModes(), title: [UInt8]?.none)
    var sentModes = (reset: [UInt8](), resume: [UInt8]())
    /// When rows could first have been made final, by the number (``CommandScreen/rowsAbove``
    /// plus index) of the first row that could not, oldest first.
    var settleable: [(boundary: Int, at: Double)] = []
    /// Whether the command's adapter reads the screen's rows (``takeRows()``).
    var readsRows = false {
        didSet { screen.notesOverwrites = readsRows }
    }
    /// The rows not yet taken by ``takeRows()``.
    var rowsToRead = ScreenRows()
    /// The numbers of the rows the adapter took as progress when it last read them
    /// (``noteProgressRows(_:on:)``).
    var progressRows: Set<Int> = []

    /// How long a partial line must sit still before it is shown as a prompt.
    static let promptDelay = 0.05
    /// How long a row stands above the rows the command redraws before it is final: a display
    /// redrawn in place shows how far up it goes in its second frame, which rich and tqdm draw a
    /// tenth of a second after the first.
    static let finalDelay = 0.25
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
        let size = TerminalDevice.size(of: terminal, environment: [:])
        screen = CommandScreen(columns: size.columns, rows: size.rows)
    }

    /// Whether keys wait to be written to the pty (poll it for writing).
    var hasPendingKeys: Bool { !pendingKeys.isEmpty }

    /// What the command wrote, after its adapter (if any) took its progress lines.
    mutating func show(_ bytes: [UInt8], on session: RenderSession) {
        lastOutput = SystemClock.monotonicSeconds()
        var rest = bytes[...]
        while !rest.isEmpty {
            if screen.isAlternateScreen {
                // The full-screen program's bytes pass as they came, up to its switch back.
                let end = Self.alternateScreenSwitch(in: rest, entering: false)?.upperBound ?? rest.endIndex
                let part = rest[..<end]
                screen.feed(part)
                session.commandOutput(
                    screen.isAlternateScreen ? .fullScreen(Array(part)) : .leaveFullScreen(Array(part)))
                rest = rest[end...]
                if !screen.isAlternateScreen { sentInput.modes = screen.modes.keyboardAndMouse }
            } else if let switchTo = Self.alternateScreenSwitch(in: rest, entering: true) {
                screen.feed(rest[..<switchTo.lowerBound])
                publish(on: session, atPrompt: false)
                session.commandOutput(.enterFullScreen)
                // The switch itself is the full-screen program's first bytes.
                let part = rest[switchTo]
                screen.feed(part)
                session.commandOutput(.fullScreen(Array(part)))
                rest = rest[switchTo.upperBound...]
            } else {
                screen.feed(rest)
                rest = []
                if screen.isAlternateScreen {
                    // The switch came cut in two reads: the terminal is sent one whole.
                    publish(on: session, atPrompt: false)
                    session.commandOutput(.enterFullScreen)
                    session.commandOutput(.fullScreen(Array("\u{1B}[?1049h".utf8)))
                }
            }
        }
        noteSettleable(at: lastOutput)
        settle(at: lastOutput)
        publish(on: session, atPrompt: shownLive.cursor != nil)
    }

    /// The output has ended: what stands on the command's screen is final.
    mutating func finish(on session: RenderSession) {
        if screen.isAlternateScreen { session.commandOutput(.leaveFullScreen(screen.resetSequence)) }
        screen.finish()
        publish(on: session, atPrompt: false)
        sendStatus(on: session, force: true)
    }

    /// Called on every turn of the poll loop: a quiet unfinished row becomes a prompt, rows that
    /// stood long enough become final, the latest status goes out, a new terminal size reaches
    /// the command. Returns the milliseconds until it wants to be called again.
    mutating func tick(on session: RenderSession) -> Int32 {
        let now = SystemClock.monotonicSeconds()
        var wait = Self.sizeInterval
        if now >= nextSizeCheck {
            pty.copySize(from: terminal)
            let size = TerminalDevice.size(of: terminal, environment: [:])
            if size.columns != screen.columns || size.rows != screen.rowCount {
                screen.resize(columns: size.columns, rows: size.rows)
                publish(on: session, atPrompt: shownLive.cursor != nil)
            }
            nextSizeCheck = now + Self.sizeInterval
            // Esc is offered only while keys reach the command and it does not read them one by one.
            session.offerCancelKey(keys != nil && pty.isInLineMode)
        }
        if let first = settleable.first {
            let due = first.at + Self.finalDelay
            if now >= due {
                settle(at: now)
                publish(on: session, atPrompt: shownLive.cursor != nil)
            } else {
                wait = min(wait, due - now)
            }
        }
        if shownLive.cursor == nil, promptCursor != nil {
            let due = lastOutput + Self.promptDelay
            if now >= due {
                publish(on: session, atPrompt: true)
            } else {
                wait = min(wait, due - now)
            }
        }
        if status.latest != status.shown, !statusAwaitsRows {
            let due = status.at + Self.statusInterval
            if now >= due { sendStatus(on: session) } else { wait = min(wait, due - now) }
        }
        return Int32(saturating: max(0, wait) * 1000, rounding: .up)
    }

    /// Reads the keys typed on the real terminal and copies them to the command, but for the
    /// display's cancel key (``takesCancelKey(_:lineMode:press:)``). Returns false when the real
    /// terminal's input has ended.
    mutating func readKeys(on session: RenderSession) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count: Int
        switch try? SystemCall.read(0, into: &buffer) {
        case .bytes(let read): count = read
        case .wouldBlock: return true
        case .endOfFile, nil: return false
        }
        if Self.takesCancelKey(buffer[..<count], lineMode: { pty.isInLineMode }, press: session.pressCancelKey) {
            return true
        }
        if pendingKeys.count + count <= Self.pendingKeysLimit { pendingKeys += buffer[..<count] }
        writeKeys()
        return true
    }

    /// Whether the display takes `keys` as its cancel key: Esc alone in one read (an arrow key, Alt
    /// with a key or a paste arrives as Esc and more in one read, and goes to the command), while
    /// the command's terminal is in line mode (no editor, pager or line editor reads it key by
    /// key; there, Esc would be a stray `^[` in a line) and the display, pressed the key
    /// (`press`: ``RenderSession/pressCancelKey()``), has something to cancel.
    static func takesCancelKey(_ keys: ArraySlice<UInt8>, lineMode: () -> Bool, press: () -> Bool) -> Bool {
        keys.count == 1 && keys.first == 0x1B && lineMode() && press()
    }

    /// Writes what the pty takes of the waiting keys.
    mutating func writeKeys() {
        while !pendingKeys.isEmpty {
            switch try? SystemCall.write(pty.master, from: pendingKeys) {
            case .written(let count): pendingKeys.removeFirst(count)
            case .wouldBlock: return  // the rest when the pty takes more
            case nil:
                pendingKeys.removeAll()  // the command is gone
                return
            }
        }
    }

    /// The latest status as the command's activity's message, at most every `statusInterval`
    /// (a meter rewritten thousands of times a second is one changing line, not an event each).
    mutating func sendStatus(on session: RenderSession, force: Bool = false) {
        let now = SystemClock.monotonicSeconds()
        guard status.latest != status.shown, force || now >= status.at + Self.statusInterval else { return }
        status.shown = status.latest
        status.at = now
        session.handle(.progress(.init(id: root, message: status.latest, timestamp: SystemClock.unixTimestamp())))
    }
}
