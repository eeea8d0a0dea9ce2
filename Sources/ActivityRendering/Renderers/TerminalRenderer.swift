import ActivityTerminal
public import ActivityWire

/// Draws activities in a terminal (a live, redrawn tree) or as plain lines (CI logs, pipes).
///
/// In ``Mode/tty`` the renderer keeps a live region at the bottom of the screen: a header when
/// several activities run, then the running activities as an indented tree, each with a spinner,
/// title, bar, percentage, counts, rate, ETA, elapsed time and message. The region is redrawn by
/// ``tick(_:now:)`` only (the session calls it at most 20 times a second), in one `write(2)` per
/// frame inside synchronized-output mode (`CSI ? 2026 h … l`); lines are overwritten in place and
/// cleared with `CSI K`, cut to the terminal's width by display width so none ever wraps, and
/// capped at rows − 1 with a "+N more" line. Finished top-level activities (and failures at any
/// depth) leave a permanent `✔`/`✖`/`⊘`/`?` line above the region, as do `log` events and
/// passed-through text. The cursor is hidden only while the region is on screen.
///
/// In ``Mode/plain`` every begin, end and log is one line with an elapsed-time prefix; an
/// activity's progress gets a line each 10%, but no sooner than
/// ``Configuration/plainProgressMinimumInterval`` after its last line, and at least every
/// ``Configuration/plainProgressInterval`` seconds while it moves; nothing but text and newlines
/// is ever written.
///
/// The renderer only produces bytes for its descriptor; the terminal itself (size, signals,
/// the redraw timer) is the job of ``RenderSession``. Driven by hand, with a fixed size and
/// clock:
///
/// ```swift
/// let terminal = TerminalRenderer(fileDescriptor: 2, configuration: .init(mode: .tty, columns: 80, rows: 24))
/// var store = ActivityStore()
/// for update in store.apply(event) { terminal.render(update, in: store) }
/// terminal.tick(store, now: 12.5)
/// ```
public final class TerminalRenderer: ActivityRenderer {
    /// Live redrawn display, or plain lines.
    public enum Mode: Sendable, Hashable {
        case tty, plain
    }

    /// How the renderer draws.
    public struct Configuration: Sendable {
        public var mode: Mode
        package var style: TerminalStyle
        package var size: TerminalSize
        /// Whether the display is a terminal: passed-through text is then sanitized.
        public var displayIsTerminal: Bool
        /// Seconds between live redraws (TTY mode); at least 0.05.
        public var refreshInterval: Double
        /// The longest time between two progress lines of one activity in plain mode.
        public var plainProgressInterval: Double
        /// The shortest time between a line of an activity in plain mode (its begin line or a
        /// progress line) and its next progress line: an activity that crosses several tenths
        /// in a second gets one line, and one shorter than this gets only its begin and end.
        public var plainProgressMinimumInterval: Double
        /// The time elapsed-time prefixes count from; the first event's when `nil`.
        public var startTime: Double?
        /// Which finished activities leave a permanent line (plain mode: which begin and end lines
        /// are written; quiet leaves top-level steps and failures).
        public var verbosity: Verbosity = .normal
        /// Whether events come as the work happens (a pipe, `activity run`), not from a recording
        /// read at full speed: plain mode then writes a begin line it holds back
        /// (``plainProgressMinimumInterval``) once that time has passed on the clock too, even
        /// when no other event comes. Without it, the next event or the end writes it.
        public var eventsAreLive = false
        /// Whether the overall progress goes to the terminal's tab or taskbar (OSC 9;4).
        public var taskbarProgress = false
        /// How much the closing summary says.
        public var summary: SummaryDetail = .full
        /// How long activities took before: "usually 2m10s" and an ETA for indeterminate ones, and
        /// the summary's steps that were slower than usual.
        public var history: ActivityHistory?

        /// A display of `columns` × `rows` cells (the terminal's size; ``TerminalRenderer/resize(columns:rows:)``
        /// follows it), in Unicode or ASCII, coloured with `colors` when `color` (never in plain
        /// mode).
        public init(
            mode: Mode, unicode: Bool = true, color: Bool = false, colors: ColorTheme = ColorTheme(),
            columns: Int = 80, rows: Int = 24, displayIsTerminal: Bool? = nil, refreshInterval: Double = 0.05,
            plainProgressInterval: Double = 5, plainProgressMinimumInterval: Double = 1, startTime: Double? = nil
        ) {
            self.init(
                mode: mode, style: TerminalStyle(unicode: unicode, color: color, colors: colors),
                size: TerminalSize(columns: columns, rows: rows), displayIsTerminal: displayIsTerminal,
                refreshInterval: refreshInterval, plainProgressInterval: plainProgressInterval,
                plainProgressMinimumInterval: plainProgressMinimumInterval, startTime: startTime)
        }

        package init(
            mode: Mode, style: TerminalStyle = TerminalStyle(unicode: true, color: false),
            size: TerminalSize = TerminalSize(columns: 80, rows: 24), displayIsTerminal: Bool? = nil,
            refreshInterval: Double = 0.05, plainProgressInterval: Double = 5,
            plainProgressMinimumInterval: Double = 1, startTime: Double? = nil
        ) {
            self.mode = mode
            self.style =
                mode == .plain ? TerminalStyle(unicode: style.unicode, color: false, colors: style.colors) : style
            self.size = size
            self.displayIsTerminal = displayIsTerminal ?? (mode == .tty)
            self.refreshInterval = max(0.05, refreshInterval)
            self.plainProgressInterval = max(0, plainProgressInterval)
            self.plainProgressMinimumInterval = min(max(0, plainProgressMinimumInterval), self.plainProgressInterval)
            self.startTime = startTime
        }
    }

    /// Where passed-through lines of one stream go.
    package enum PassthroughTarget {
        /// Through the display output, above the live region.
        case display
        /// To another output. `sanitize` when it is a terminal; `sharesTerminal` when it is the
        /// display's terminal, so the live region must be cleared around the write.
        case output(any ByteOutput, sanitize: Bool, sharesTerminal: Bool)
    }

    // The properties read for every event skip the run-time exclusivity check (together it
    // cost about a twentieth of plain mode's time): the renderer is driven under its session's
    // lock, one call at a time, and never re-entered.
    @exclusivity(unchecked) public private(set) var configuration: Configuration
    let output: any ByteOutput
    let passthroughTargets: [StandardStream: PassthroughTarget]
    var style: TerminalStyle { configuration.style }

    // TTY state.
    var liveHeight = 0
    var liveRowsOnScreen = 0
    /// The live region's bytes as last drawn, and a spare buffer for the next frame's.
    var lastBody = ByteBuffer()
    var spareBody = ByteBuffer()
    var lastLineWidths: [Int] = []
    var spareWidths: [Int] = []
    var cursorHidden = false
    /// Read after every event, and an end's lines are added to it: unchecked, as the
    /// configuration is.
    @exclusivity(unchecked) var pendingAbove: [UInt8] = []
    /// Lines of the reporters' (logs, ends) left out while the output was behind, not told yet.
    var droppedAbove = 0
    var pendingSeparate: [(any ByteOutput, [UInt8])] = []
    var redrawNeeded = false
    /// Each activity's line parts, by sequence; an end drops its entry.
    @exclusivity(unchecked) var lineCache: [Int: ActivityLineCache] = [:]
    /// The rows of the last frame, kept for their memory.
    var liveRows: [LiveRow] = []
    /// The last elapsed time formatted, by its key (see `elapsedPart`).
    var lastElapsed: (key: Int64, part: LiveRow.Part?) = (0, nil)
    /// The header's bytes as last written, with what they show.
    var headerKept: (key: HeaderLineKey, bytes: [UInt8], width: Int)?

    // Shared state.
    @exclusivity(unchecked) var startTime: Double?
    var shownDiagnostics: Set<Diagnostic.Code> = []
    /// Plain mode: when each activity's last progress line was written, by handle index.
    @exclusivity(unchecked) var plainProgress: [(handle: ActivityHandle, time: Double, tenth: Int)?] = []
    /// The path titles made so far (``pathTitle(of:in:)``).
    @exclusivity(unchecked) var pathTitles: PathTitleCache
    /// Activities' paths as the history knows them (``ActivityHistory/key(_:)``), when there is
    /// a history to read.
    @exclusivity(unchecked) var historyKeys = PathTitleCache(separator: ActivityHistory.keySeparator)
    /// The titles that end the history's paths, gathered at the first lookup: an activity whose
    /// title ends none has no entry, and its key is not made.
    var historyTitles: Set<String>?
    /// Plain mode's line, built as bytes and reused.
    @exclusivity(unchecked) var plainLine: [UInt8] = []
    /// Plain mode: the last begin line, not written yet: an activity that ends within
    /// ``beginHold`` of its begin, with no line between, gets its end line alone.
    var heldBegin: (handle: ActivityHandle, time: Double)?
    /// The line of ``heldBegin``, its storage reused from begin to begin: most are dropped.
    @exclusivity(unchecked) var heldBeginLine: [UInt8] = []
    /// Plain mode's elapsed-time prefix, by its ``Formatting/durationKey(_:)``.
    @exclusivity(unchecked) var plainPrefixKept: (key: Int64, bytes: [UInt8])?
    @exclusivity(unchecked) var isFinished = false
    /// Set while the closing summary is written: its plain lines are never left out for a
    /// stalled reader (``ByteOutput/writeDisplayLine(_:)``).
    var writesSummary = false
    /// The unfinished passed-through line of each stream drawn on a terminal.
    var passthroughLines: [StandardStream: LineSplitter] = [:]
    /// Where a command on a pseudo-terminal has its output (see `commandOutput`).
    var commandView = CommandView.lines
    /// The rows of the command's screen it may still redraw, drawn under its activity.
    var commandLiveRows: [ScreenRow] = []
    /// How many rows of a prompt (``CommandView/prompt``) are on the screen, the cursor on the last.
    var promptRows = 0
    /// Whether `pendingAbove` erases the live region (`CSI J`) before the command's final rows,
    /// which are written without an erase of their own.
    var pendingAboveErased = false
    /// The command's newest final rows not yet kept in their owner's tail (``keepUnkeptRows()``),
    /// the owner's sequence, and the number of the last permanent line among them.
    var unkeptRows: (bytes: [UInt8], owner: Int, lastLine: Int)?
    /// The bytes that turn off the modes the command left on, and on again (from its screen
    /// model): written when it ends or is stopped, and when it continues.
    var commandModes: (reset: [UInt8], resume: [UInt8]) = ([], [])
    /// While the process is stopped (Ctrl-Z), nothing is drawn.
    package var isSuspended = false
    /// The command's rows and cursor as they stand on its screen (``CommandOutput/standing(_:cursor:)``).
    var commandStanding: (rows: [ScreenRow], cursor: CommandOutput.LiveCursor)?
    /// The command's rows drawn at its last stop, until they become final.
    var stoppedRows = StoppedCommandRows()
    /// The claim whose signal handlers restore this terminal, when the session took it: frames
    /// are drawn inside its fence, so that none lands behind a handler's restore.
    package var drawingClaim: TerminalClaim?
    /// The cancel key, where the owner of the keyboard offers it: its hint is the region's last line.
    package var cancelKey = CancelKey()
    /// What the terminal's taskbar shows.
    var taskbar = TaskbarMemory()
    /// The slowest steps and the failures, for the closing summary.
    var summaryNotes = SummaryNotes()
    /// The last lines of output of each activity (see `TerminalRenderer+OutputTail`).
    @exclusivity(unchecked) var tails = OutputTails()
    /// How many permanent lines the display has written: where a kept line of output stands.
    var permanentLines = 0
    /// The command's unfinished line on each stream the display does not show, for the tails.
    var tailSplitters: [StandardStream: LineSplitter] = [:]
    /// The activity the command's own output belongs to (`activity run`: the command's activity,
    /// or the innermost one its adapter reports); `nil` when output belongs to none.
    package var outputOwner: ActivityID?

    /// Creates a renderer writing to the open descriptor `fileDescriptor` (a terminal in TTY
    /// mode), which it never closes; passed-through lines go there too.
    public convenience init(fileDescriptor: Int32, configuration: Configuration) {
        self.init(output: FileDescriptorOutput(fileDescriptor: fileDescriptor), configuration: configuration)
    }

    /// Creates a renderer writing to `output`.
    ///
    /// - Parameters:
    ///   - output: the display: a terminal in TTY mode.
    ///   - configuration: mode, style, size and timing.
    ///   - passthrough: where non-event lines of each stream go; the display when absent.
    package init(
        output: any ByteOutput, configuration: Configuration,
        passthrough: [StandardStream: PassthroughTarget] = [:]
    ) {
        self.output = output
        self.configuration = configuration
        self.passthroughTargets = passthrough
        self.startTime = configuration.startTime
        self.pathTitles = PathTitleCache(separator: configuration.style.pathSeparator)
    }

    public var preferredTickInterval: Double? {
        switch configuration.mode {
        case .tty: configuration.refreshInterval
        case .plain: configuration.eventsAreLive ? Self.plainTickInterval : nil
        }
    }

    /// How often plain mode looks whether a begin line it holds back is due.
    static let plainTickInterval = 0.25

    /// The terminal changed size (SIGWINCH): the next tick redraws the live region to fit.
    public func resize(columns: Int, rows: Int) {
        resize(to: TerminalSize(columns: columns, rows: rows))
    }

    package func resize(to size: TerminalSize) {
        guard size != configuration.size else { return }
        let old = configuration.size
        configuration.size = size
        guard configuration.mode == .tty, liveHeight > 0 else { return }
        if size.columns < old.columns {
            // Terminals that reflow (tmux, VTE, kitty, iTerm2, Windows Terminal) now show each old
            // line on as many rows as it needs at the new width; the cursor is on the row below
            // them. Terminals that do not (xterm, the Linux console) cut each line and keep it on
            // its row. The program cannot tell which it has, so the redraw goes up by the rows
            // of the reflow, erases from there to the end of the screen and draws the frame.
            // BuildKit and indicatif go up by the rows they drew, at the width they drew them:
            // right for xterm, but on the reflowing terminals most people use each shrink leaves
            // the tops of the old lines on the screen. Going up too far costs less here: on a
            // terminal that does not reflow, as many permanent lines as the region gained rows
            // (those just above it) are drawn over. A frame drawn at the old width after the
            // terminal shrank (tmux reflows at once and tells the program later) has its lines
            // on one row each (autowrap is off for them), so the count holds for it too.
            liveRowsOnScreen = lastLineWidths.reduce(0) { $0 + max(1, ($1 + size.columns - 1) / size.columns) }
        }
        redrawNeeded = true
    }

    // MARK: - ActivityRenderer

    public func render(_ update: ActivityUpdate, in store: ActivityStore) {
        guard !isFinished else { return }
        if startTime == nil { startTime = update.timestamp }
        if update.progressTitle != nil {
            pathTitles.titleChanged()
            historyKeys.titleChanged()
        }
        if update.kind == .end || update.kind == .log { keepUnkeptRows() }
        // An end's activity, read once for all an end does, and lent from here on: each read is
        // a copy (its references retained), and so is each binding of an optional of it.
        if update.kind == .end, let handle = update.handle, let ended = store[handle] {
            noteForSummary(update, ended, in: store)
            switch configuration.mode {
            case .tty: renderLiveEnd(ended, in: store)
            case .plain: renderPlainEnd(update, ended, in: store)
            }
            if !tails.isEmpty { tails.remove(ended.sequence) }
            return
        }
        switch configuration.mode {
        case .tty: renderLive(update, in: store)
        case .plain: renderPlain(update, in: store)
        }
    }

    public func passthrough(_ bytes: [UInt8], to stream: StandardStream, in store: ActivityStore) {
        if case .output(let target, sanitize: false, _) = passthroughTargets[stream] ?? .display {
            // A file or a pipe of its own: byte for byte, as it came (after the begin line held
            // back, which came first: the two may share a file, `2>&1`).
            writeHeldBegin()
            target.write(bytes)
            keepUnshownOutput(bytes, from: stream, in: store)
            return
        }
        var lines = passthroughLines[stream] ?? LineSplitter(maxLineBytes: WireLimits.maxAcceptedLineBytes)
        lines.feed(bytes) { passthroughLine($0, to: stream, in: store) }
        passthroughLines[stream] = lines
    }

    /// One line (or a piece of an overlong one) of a stream that shares the display or a
    /// terminal: sanitized for a terminal and drawn above the live region.
    func passthroughLine(_ piece: LineSplitter.Piece, to stream: StandardStream, in store: ActivityStore) {
        switch passthroughTargets[stream] ?? .display {
        case .display:
            let line = Array(piece.bytes)
            let text = configuration.displayIsTerminal ? TerminalSanitizer.display(bytes: line) : line
            if configuration.mode == .tty && !isFinished {
                appendAbove(text)
            } else {
                // Plain lines of ours and the stream's share the display: each keeps its own line;
                // on a file the stream's bytes stay as they came, a missing final newline too.
                writeHeldBegin()
                output.write(text + (piece.endsWithNewline || configuration.displayIsTerminal ? [0x0A] : []))
                notePermanentLine()
            }
            if outputOwner != nil { keepOwnedOutput(line, shownAs: permanentLines, in: store) }
        case .output(let target, let isTerminal, let sharesTerminal):
            if outputOwner != nil { keepOwnedOutput(piece.bytes, shownAs: nil, in: store) }
            // On a terminal a line ends as the display's own do: the terminal's output
            // processing may be off (`activity run`).
            let text = TerminalSanitizer.display(bytes: Array(piece.bytes)) + (isTerminal ? Self.newline : [0x0A])
            if configuration.mode == .tty && sharesTerminal && !isFinished && liveHeight > 0 {
                pendingSeparate.append((target, text))
                if pendingSeparate.count > 4096 { flushNow(store) }
            } else {
                writeHeldBegin()
                target.write(text)
            }
        }
    }

    /// At the end: the unfinished line of each stream, as its last line.
    func finishPassthrough(_ store: ActivityStore) {
        for stream in [StandardStream.stdout, .stderr] {
            passthroughLines[stream]?.finish { passthroughLine($0, to: stream, in: store) }
        }
        passthroughLines.removeAll()
    }

    public func report(_ diagnostic: Diagnostic, in store: ActivityStore) {
        guard shownDiagnostics.insert(diagnostic.code).inserted else { return }
        let text = TerminalSanitizer.display(diagnostic.message)
        let place: String
        switch (diagnostic.source, diagnostic.line > 0) {
        case (let source?, true): place = "\(source), its line \(diagnostic.line)"
        case (let source?, false): place = source
        case (nil, true): place = "input line \(diagnostic.line)"
        case (nil, false): place = "input"
        }
        let message =
            "warning: \(place): \(text) [\(diagnostic.code.rawValue)]; further problems of this kind are counted"
        switch configuration.mode {
        case .tty: appendAbove(StyledLine(message, .detail))
        case .plain: writePlain(StyledLine(message), at: store.summary.lastTime)
        }
    }

    public func notice(_ message: String, in store: ActivityStore) {
        let line = StyledLine("warning: " + TerminalSanitizer.display(message), .warning)
        switch configuration.mode {
        case .tty: appendAbove(line)
        case .plain: writePlain(line, at: store.summary.lastTime)
        }
    }

    public func tick(_ store: ActivityStore, now: Double) {
        if configuration.mode == .plain, let held = heldBegin, now - held.time >= beginHold { writeHeldBegin() }
        // A terminal that takes nothing (paused with Ctrl-S) gets no frames meanwhile: the next
        // one, once it has caught up, shows everything as it then stands.
        guard configuration.mode == .tty, !isFinished, !output.isBehind else { return }
        drawFrame(store, now: now)
    }

    public func finish(_ store: ActivityStore, now: Double) {
        guard !isFinished else { return }
        finishPassthrough(store)
        let summary = summaryLines(store.summary)
        switch configuration.mode {
        case .tty:
            finishCommandScreen()
            isSuspended = false
            tellDroppedLines(evenIfBehind: true)
            for line in summary { appendAbove(line) }
            isFinished = true
            drawFrame(store, now: now)
        case .plain:
            writeHeldBegin()
            writesSummary = true
            for line in summary { writePlain(line, at: now) }
            writesSummary = false
            isFinished = true
        }
        lineCache.removeAll()
        plainProgress.removeAll()
        pathTitles.removeAll()
        historyKeys.removeAll()
    }

    // MARK: - Shared formatting

    /// Whether `activity` is a top-level step: at the top, or just under a frame (the command's
    /// activity under `activity run`).
    func isTopLevel(_ activity: ActivityState, in store: ActivityStore) -> Bool {
        activity.depth == 0 || store.isFrame(activity.parent)
    }

    func mark(for status: ActivityEvent.Status) -> ActivityStatusMark {
        switch status {
        case .success: .success
        case .failure: .failure
        case .cancelled: .cancelled
        case .skipped: .skipped
        case .abandoned: .abandoned
        }
    }

    /// The titles from the top down to `activity`, joined: `Build › Compile`. Kept: plain mode
    /// names the path on every line it writes.
    func pathTitle(of activity: ActivityState, in store: ActivityStore) -> String {
        pathTitles.title(of: activity, in: store)
    }

    /// A finished activity's line: `✔ Title  3.2s  message` or `✖ Title  1.0s  error`.
    func endLine(_ activity: ActivityState, title: String) -> StyledLine {
        var line = StyledLine()
        appendEndLine(activity, title: title, to: &line)
        return line
    }

    /// Builds ``endLine(_:title:)`` in `line`; `afterTitle` adds what comes between the title and
    /// the duration (plain mode: the size its begin line would have shown).
    func appendEndLine<Line: LineBuilder>(
        _ activity: ActivityState, title: String, to line: inout Line, afterTitle: (inout Line) -> Void = { _ in }
    ) {
        appendEndLine(activity, to: &line) { line, role in
            line.append(title, role)
            afterTitle(&line)
        }
    }

    /// Builds ``endLine(_:title:)`` in `line`, with the title and what follows it as `titled`
    /// appends them, in the title's colour.
    func appendEndLine<Line: LineBuilder>(
        _ activity: ActivityState, to line: inout Line, titled: (inout Line, ColorRole?) -> Void
    ) {
        let status = activity.status ?? .abandoned
        let statusMark = mark(for: status)
        line.append(style.symbol(for: statusMark), style.role(for: statusMark))
        line.append(" ", nil)
        titled(&line, status == .failure ? .title : nil)
        let duration = activity.duration(at: activity.endTime ?? activity.startTime)
        line.append(.detail) { bytes in
            bytes.append(0x20)
            bytes.append(0x20)
            Formatting.appendDuration(duration, to: &bytes)
        }
        if status == .abandoned { line.append("  (abandoned)", .detail) }
        if let message = activity.message, !message.isEmpty {
            line.append(.message) { Self.appendSpaced(message, to: &$0) }
        }
        if let error = activity.error, !error.isEmpty {
            line.append(.failure) { Self.appendSpaced(error, to: &$0) }
        }
    }

    /// Two spaces, then `text`: the gap between the parts of a line.
    static func appendSpaced(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(0x20)
        bytes.append(0x20)
        Formatting.appendUTF8(text, to: &bytes)
    }

    /// A `log` event's line: `warning: Title: message`, with `message` the event's, sanitized.
    func logLine(
        _ log: ActivityEvent.Log, message: String, activity: ActivityState?, in store: ActivityStore
    ) -> StyledLine {
        var line = StyledLine()
        var path: String?
        if let activity { path = pathTitle(of: activity, in: store) }
        appendLogLine(log, message: message, path: path, to: &line)
        return line
    }

    /// Builds ``logLine(_:message:activity:in:)`` in `line`; `path`: the path title of the log's
    /// activity, if it has one. (Made by the caller: a closure that writes the line would copy
    /// the store it was handed.)
    func appendLogLine<Line: LineBuilder>(
        _ log: ActivityEvent.Log, message: String, path: String?, to line: inout Line
    ) {
        switch log.level {
        case .error: line.append("error: ", .logError)
        case .warning: line.append("warning: ", .logWarning)
        case .info, .debug: break
        }
        if let title = path {
            line.append(.detail) { bytes in
                Formatting.appendUTF8(title, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                bytes.append(0x20)
            }
        }
        line.append(message, log.level == .debug ? .logDebug : nil)
    }
}

/// The size of a terminal in character cells.
package struct TerminalSize: Sendable, Hashable {
    package var columns: Int
    package var rows: Int

    package init(columns: Int, rows: Int) {
        self.columns = max(1, columns)
        self.rows = max(1, rows)
    }

    init(_ size: (columns: Int, rows: Int)) {
        self.init(columns: size.columns, rows: size.rows)
    }
}
