import ActivityTerminal
public import ActivityWire
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Renders one event stream: owns the store, the renderers the options ask for, the redraw
/// timer and, in TTY mode, the terminal.
///
/// Feed it events with ``handle(_:)``, non-event output with ``passthrough(_:to:)`` and input
/// problems with ``report(_:)``, from any thread, then call ``finish()``: it ends what is still
/// open as `abandoned`, draws the final state, stops the timer and restores the terminal.
///
/// ```swift
/// let session = try RenderSession(options: RenderOptions(logFile: "build.log"))
/// defer { session.finish() }
/// var reader = EventStreamReader(source: FileDescriptorSource(fileDescriptor: 0))
/// try reader.forEach { item in
///     guard item.isLineStart else { return }
///     switch item.decoded {
///     case .event(let event): session.handle(event)
///     case .text: session.passthrough(Array(item.bytes) + [0x0A], to: .stdout)
///     case .invalid(let problem), .ignored(let problem?): session.report(problem)
///     default: break
///     }
/// }
/// ```
///
/// Redraws happen on a timer thread at most 20 times a second, never per event. In TTY mode the
/// cursor is hidden only while the live region is on screen, and restored by ``finish()``, by
/// `deinit`, and on a signal, when ``RenderOptions/handlesSignals`` asks for it (the `activity`
/// command does; one session at a time). The process's one set of handlers (`ProcessSignals`,
/// in ActivityTerminal) then takes SIGINT and SIGTERM (unless ignored when the session starts,
/// as Dispatch signal sources require: the program handles those and calls ``finish()``) and
/// SIGWINCH:
///
/// - **SIGINT, SIGTERM**: the restore sequence is written (end synchronized output, reset
///   colours, show the cursor). A handler the program installed before the session is then
///   called and the display carries on (the next frame hides the cursor again); otherwise the
///   signal's default action ends the process, with the status the signal gives. A handler
///   installed *after* the session replaces ours and should call ``restoreTerminal()``.
/// - **SIGWINCH**: the live region is redrawn at the new size at once.
public final class RenderSession: Sendable {
    private let state: SessionState
    private let timer: RedrawTimer?
    /// Writes the display and the standard streams on a thread of its own, if it does.
    private let writer: BackgroundWriter?
    /// The signals claimed from ``ProcessSignals`` while the session owns the terminal.
    private let signals: [Int32]?
    private let finished = Atomic<Bool>(false)
    private let finishing = Mutex(false)
    private let clock: @Sendable () -> Double
    /// The mode in use: `tty`, `plain`, `log` or `jsonl`; `auto` only for a session built from
    /// renderers of the caller's own.
    public let mode: RenderMode

    /// Sets up the renderers `options` ask for and starts the redraw timer.
    ///
    /// - Throws: ``RenderError`` when the log file cannot be opened for appending, or a plugin is
    ///   not on `PATH` or cannot be started.
    public convenience init(options: RenderOptions) throws(RenderError) {
        try self.init(options: options, clock: WallClock.now)
    }

    /// A session whose display is renderers of the caller's own (an overlay, a host UI), fed
    /// together with the log file, plugins and history file `options` ask for; its cancel
    /// requests go to ``RenderOptions/onCancelRequest``.
    ///
    /// `makeDisplay` is called once the log file is open and the plugins have started, so that
    /// nothing is drawn when they fail. `options`' mode, display descriptor, style and signal
    /// settings are not used: the display renderers draw where they were made to, and restore
    /// what they change in ``ActivityRenderer/finish(_:now:)``. ``mode`` is `auto`.
    ///
    /// ```swift
    /// let session = try RenderSession(options: RenderOptions(logFile: "build.log")) { [MyOverlay()] }
    /// ```
    ///
    /// - Throws: ``RenderError`` when the log file cannot be opened for appending, or a plugin is
    ///   not on `PATH` or cannot be started.
    public convenience init(
        options: RenderOptions, display makeDisplay: () -> sending [any ActivityRenderer]
    ) throws(RenderError) {
        try self.init(options: options, display: makeDisplay, clock: WallClock.now)
    }

    /// Sets up the renderers `options` ask for, with a clock of the caller's (for tests).
    package convenience init(options: RenderOptions, clock: @escaping @Sendable () -> Double) throws(RenderError) {
        try self.init(options: options, display: { nil }, clock: clock)
    }

    /// Sets up the renderers `options` ask for; the renderers `makeDisplay` makes, if it makes
    /// any, draw instead of the mode's display.
    package init(
        options: RenderOptions, display makeDisplay: () -> sending [any ActivityRenderer]?,
        clock: @escaping @Sendable () -> Double
    ) throws(RenderError) {
        // What can fail is set up first, so that nothing is drawn when it does.
        let logFile = try options.logFile.map { path throws(RenderError) in
            try LogFileRenderer(path: path, format: options.logFormat, clock: clock)
        }
        var plugins: [PluginHost] = []
        for name in options.plugins {
            plugins.append(try PluginHost(name: name, environment: options.environment))
        }
        let custom = makeDisplay()
        let mode = custom == nil ? options.resolvedMode() : .auto
        let descriptor = options.displayFileDescriptor
        let environment = options.environment
        let display = FileDescriptorOutput(fileDescriptor: descriptor)
        let displayIsTerminal = TerminalDevice.isTerminal(descriptor)
        // One output per standard stream, shared by every renderer that writes to it, so the
        // session can tell when a reader has gone away (`isClosed(_:)`).
        var standardOutputs: [StandardStream: FileDescriptorOutput] = [:]
        for stream in [StandardStream.stdout, .stderr] {
            standardOutputs[stream] =
                stream.fileDescriptor == descriptor
                ? display : FileDescriptorOutput(fileDescriptor: stream.fileDescriptor)
        }
        var renderers: [any ActivityRenderer] = []
        var terminal: TerminalRenderer?
        var colorWarning: String?
        var clearsTaskbar = false
        // Read before anything is drawn, by the displays that show estimates from it: a small
        // file, and its warning goes above the display.
        let showsEstimates = mode == .tty || mode == .plain || mode == .auto
        let history = options.historyFile.map { HistoryRecorder(path: $0, readsEstimates: showsEstimates) }

        switch mode {
        case .auto:
            // Only a display of the caller's own leaves the mode unresolved.
            renderers = custom ?? []
        case .tty, .plain:
            let style: TerminalStyle
            (style, colorWarning) = TerminalStyle.detect(environment: environment, isTerminal: displayIsTerminal)
            var configuration = TerminalRenderer.Configuration(
                mode: mode == .tty ? .tty : .plain, style: style,
                size: TerminalSize(TerminalDevice.size(of: descriptor, environment: environment)),
                displayIsTerminal: displayIsTerminal)
            configuration.verbosity = options.verbosity
            configuration.eventsAreLive = options.eventsAreLive
            configuration.summary = options.summary
            configuration.history = history?.known
            configuration.taskbarProgress =
                mode == .tty && displayIsTerminal
                && (options.taskbarProgress ?? TaskbarProgress.isSupported(environment: environment))
            clearsTaskbar = configuration.taskbarProgress
            let renderer = TerminalRenderer(
                output: display, configuration: configuration,
                passthrough: Self.passthroughTargets(display: descriptor, tty: mode == .tty, outputs: standardOutputs))
            terminal = renderer
            renderers.append(renderer)
        case .log:
            renderers.append(LogFileRenderer(output: display, format: .text, clock: clock))
            renderers.append(StreamPassthrough(display: descriptor, outputs: standardOutputs))
        case .jsonl:
            // Lines of the stream that is the display itself go into it, in order; the other
            // stream's lines go to their own descriptor (StreamPassthrough), not both.
            let onDisplay = Set([StandardStream.stdout, .stderr].filter { $0.fileDescriptor == descriptor })
            renderers.append(JSONLinesRenderer(output: display, textStreams: onDisplay))
            renderers.append(StreamPassthrough(display: descriptor, outputs: standardOutputs))
        }
        if let logFile { renderers.append(logFile) }
        // The display and the standard streams share one batch, so their lines keep their order.
        let batch = options.batchesOutput && mode != .tty && mode != .auto ? OutputBatch() : nil
        if let batch {
            display.batch = batch
            for output in standardOutputs.values { output.batch = batch }
        }
        // Lines of the JSON-lines display are a recording: none is left out (they are written
        // as kept, and wait on disk beyond the queue's bound, see WriteQueue).
        let writesInBackground =
            options.writesInBackground && batch == nil && [.plain, .log, .tty, .jsonl].contains(mode)
        writer =
            writesInBackground
            ? BackgroundWriter(
                outputs: [display] + standardOutputs.values, display: display,
                claim: mode == .tty && options.handlesSignals ? .display : nil) : nil
        if let history { renderers.append(history) }
        renderers += options.renderers as [any ActivityRenderer]
        self.mode = mode
        self.clock = clock
        let watched = mode == .tty && displayIsTerminal ? (descriptor, environment) : nil
        let state = SessionState(
            SessionCore(
                renderers: renderers, plugins: plugins, terminal: terminal, standardOutputs: standardOutputs,
                history: history, batch: batch),
            watchedTerminal: watched)
        self.state = state
        state.core.withLock { core in
            if let warning = core.history?.loadWarning { core.renderer.notice(warning, in: core.store) }
            if let colorWarning { core.renderer.notice(colorWarning, in: core.store) }
        }
        let onCancelRequest = options.onCancelRequest
        state.core.withLock { $0.store.onCancelRequest = onCancelRequest }
        let interval = state.core.withLock { $0.renderer.preferredTickInterval }
        let timer = interval.flatMap { interval in
            RedrawTimer(interval: interval) { state.tick(now: clock()) }
        }
        self.timer = timer
        // Autowrap is off only inside a frame; a signal may come in the middle of one.
        let restore =
            Array("\u{1B}[?2026l\u{1B}[0m\u{1B}[?7h\u{1B}[?25h".utf8)
            + (clearsTaskbar ? TaskbarProgress.cleared.sequence : [])
        if mode == .tty && options.handlesSignals,
            TerminalClaim.display.take(output: descriptor, bytes: restore, wake: timer?.wakeDescriptor ?? -1)
        {
            // Ctrl-Z: the handler shows the cursor before the process stops; the region is drawn
            // afresh under the shell's lines once it continues.
            signals = ProcessSignals.claim([SIGINT, SIGTERM] + (displayIsTerminal ? [SIGWINCH, SIGTSTP] : []))
            state.core.withLock { $0.terminal?.drawingClaim = .display }
        } else {
            signals = nil
        }
    }

    /// A session that feeds renderers of the caller's own, such as a custom Swift renderer.
    ///
    /// ```swift
    /// let session = RenderSession(renderers: [MyRenderer()])
    /// ```
    public init(renderers: sending [any ActivityRenderer], clock: @escaping @Sendable () -> Double = WallClock.now) {
        let state = SessionState(SessionCore(renderers: renderers, plugins: [], terminal: nil), watchedTerminal: nil)
        self.state = state
        self.clock = clock
        self.mode = .auto
        self.signals = nil
        self.writer = nil
        let interval = state.core.withLock { $0.renderer.preferredTickInterval }
        self.timer = interval.flatMap { interval in RedrawTimer(interval: interval) { state.tick(now: clock()) } }
    }

    deinit {
        finish()
    }

    /// Applies one event. Thread-safe; a missing `ts` is stamped with the arrival time.
    public func handle(_ event: ActivityEvent) {
        handle(event, line: 0)
    }

    /// Applies one event read from input line `line` (named in diagnostics).
    public func handle(_ event: ActivityEvent, line: Int) {
        handle(event, line: line, sender: nil, owner: nil)
    }

    /// Applies one event that the reporter on connection `sender` sent, in a session fed by
    /// several (`activity run`): see ``ActivityOwner``. Returns whether it was taken (`false`:
    /// skipped, with a `not-owner` diagnostic, as another's).
    @discardableResult
    package func handle(_ event: ActivityEvent, line: Int, sender: Int32?, owner: ActivityOwner?) -> Bool {
        guard !finished.load(ordering: .relaxed) else { return false }
        var event = event
        let arrival = clock()
        if event.timestamp == nil { event.timestamp = arrival }
        return state.core.withLock { core in
            core.noteArrival(eventTime: event.timestamp!, arrival: arrival)
            return core.apply(event, line: line, sender: sender, owner: owner)
        }
    }

    /// Applies one event decoded in place (see `EventStreamReader`): the fast path of `activity
    /// render`, where the id is looked up from the line's bytes and no copy of the event is made.
    package func handle(_ event: LineEvent, line: Int) {
        handle(event, line: line, sender: nil)
    }

    /// Applies one event decoded in place that the reporter on connection `sender` sent (see
    /// ``handle(_:line:sender:owner:)``).
    @discardableResult
    package func handle(_ event: LineEvent, line: Int, sender: Int32?) -> Bool {
        guard !finished.load(ordering: .relaxed) else { return false }
        let clock = self.clock
        return state.core.withLock { core in
            if let timestamp = event.timestamp {
                // Events that stream this fast arrive together: the clock is read for one in 64.
                if core.eventsSinceClock & 63 == 0 { core.noteArrival(eventTime: timestamp, arrival: clock()) }
                core.eventsSinceClock &+= 1
                return core.apply(event, line: line, sender: sender)
            }
            // Stamped with the arrival time, as ``handle(_:line:)`` stamps an event. (Only such an
            // event is copied: the event is 104 bytes.)
            let arrival = clock()
            var stamped = event
            stamped.timestamp = arrival
            core.noteArrival(eventTime: arrival, arrival: arrival)
            return core.apply(stamped, line: line, sender: sender)
        }
    }

    /// Ends, as abandoned at `time` (as an event's `ts`), the running activities `owner` began
    /// (its reporter went away), the latest begun first. Returns their ids.
    @discardableResult
    package func abandon(ownedBy owner: ActivityOwner, at time: Double) -> [ActivityID] {
        guard !finished.load(ordering: .relaxed) else { return [] }
        return state.core.withLock { $0.abandon(ownedBy: owner, at: time) }
    }

    /// The activity `id` as the store holds it now, if it does.
    package func activity(_ id: ActivityID) -> ActivityState? {
        state.core.withLock { core in core.store.slot(of: id).flatMap { core.store.slots[$0] } }
    }

    /// Writes the output gathered so far (``RenderOptions/batchesOutput``): call it before a read
    /// that may wait for the producer, so that what came before is seen at once.
    package func flushOutput() {
        state.core.withLock { core in _ = core.batch?.flush() }
    }

    /// Asks the producer of `id` to cancel it (``ActivityStore/requestCancel(_:)``), from any
    /// thread: for a Swift renderer or a host UI with a Cancel control.
    @discardableResult
    public func requestCancel(_ id: ActivityID) -> Bool {
        state.core.withLock { $0.store.requestCancel(id) }
    }

    /// Whether the TTY display offers its cancel key (Esc) now: said by whoever owns the keyboard
    /// (`activity run`, while its command's terminal is in line mode). The live region then shows
    /// the key's hint while something is cancellable.
    package func offerCancelKey(_ offered: Bool) {
        state.core.withLock { core in core.terminal?.cancelKey.isOffered = offered }
    }

    /// The cancel key was pressed: asks each activity it cancels once (``CancelKey``), through
    /// ``ActivityStore/requestCancel(_:)``. Returns whether the display took the key; when it did
    /// not (not offered, nothing to cancel), the key belongs to whoever else reads the keyboard.
    package func pressCancelKey() -> Bool {
        state.core.withLock { core in
            guard let terminal = core.terminal else { return false }
            let (taken, ids) = terminal.cancelKey.press(in: core.store)
            for id in ids { core.store.requestCancel(id) }
            return taken
        }
    }

    /// Passes on output of the producer's own that is not an event, as it came (lines with their
    /// `\n`, or part of one): byte for byte to a file or a pipe, sanitized line by line on a
    /// terminal, above the live region when it shares the display.
    public func passthrough(_ bytes: [UInt8], to stream: StandardStream) {
        // Once finishing began, events are dropped before the lock: text that came after them
        // is dropped too, or it would show ahead of the events that came before it.
        guard !finished.load(ordering: .relaxed) else { return }
        state.core.withLock { core in
            guard !core.isFinished else { return }
            core.renderer.passthrough(bytes, to: stream, in: core.store)
        }
    }

    /// Shows a piece of a command's output read from its pseudo-terminal (`activity run`): final
    /// rows above the live region with their colours, live rows inside it, a prompt with the
    /// region out of its way, the alternate screen untouched. Displays that record lines (log
    /// files, plugins) get the final rows' texts.
    package func commandOutput(_ piece: CommandOutput) {
        guard !finished.load(ordering: .relaxed) else { return }
        state.core.withLock { core in
            guard !core.isFinished else { return }
            core.terminal?.commandOutput(piece, in: core.store)
            guard case .final(let bytes, _) = piece else { return }
            // The history file keeps activities, not lines: splitting the rows for it would cost
            // a command writing at full speed for nothing.
            let others = (core.others + core.plugins).filter { $0 !== core.terminal && !($0 is HistoryRecorder) }
            guard !others.isEmpty else { return }
            var text: [UInt8] = []
            for line in CommandOutput.lines(of: bytes) { text += line + [0x0A] }
            for renderer in others { renderer.passthrough(text, to: .stdout, in: core.store) }
        }
    }

    /// The producer's own output from now on belongs to the activity `id` (`activity run`: the
    /// command's activity, or the innermost one its adapter reports); `nil`: to none. The
    /// terminal display keeps its last lines to show under the activity and with its failure.
    package func attributeOutput(to id: ActivityID?) {
        state.core.withLock { core in core.terminal?.outputOwner = id }
    }

    /// The process is about to stop (Ctrl-Z): the live region leaves the screen, a command's
    /// rows are left on it as they stand, and nothing is drawn until ``resumeDrawing()``.
    package func suspendDrawing() {
        state.core.withLock { core in
            core.terminal?.suspendCommandModes()
            core.terminal?.stepAsideForStop()
            core.terminal?.isSuspended = true
        }
        // The shell writes next: what is queued reaches the terminal first, unless its reader
        // takes nothing (paused with Ctrl-S), which must not keep the process from stopping.
        writer?.waitUntilWritten(seconds: 2)
    }

    /// Draws what waits for the next frame now, and waits (two seconds at most, for a reader
    /// that takes nothing) until it is written: `activity run` calls it before it gives the
    /// terminal its own settings back, so that everything drawn under the display's settings
    /// (output processing off) was written under them.
    package func drawNow() {
        state.core.withLock { core in
            guard let terminal = core.terminal, !core.isFinished else { return }
            terminal.flushNow(core.store)
        }
        writer?.waitUntilWritten(seconds: 2)
    }

    /// The process continued: the command's modes are on again, and the live region comes back
    /// with the next frame.
    package func resumeDrawing() {
        state.core.withLock { core in
            core.terminal?.resumeCommandModes()
            core.terminal?.isSuspended = false
        }
    }

    /// Whether the live display draws on a terminal (TTY mode): `activity run` then gives its
    /// command a pseudo-terminal of its own.
    package var drawsOnTerminal: Bool { mode == .tty }

    /// Whether the reader of `stream` has gone away (a closed pipe: `… | head -1`), so that what
    /// produces the output can stop, as a filter in a pipeline does.
    public func isClosed(_ stream: StandardStream) -> Bool {
        writeFailure(stream) != nil
    }

    /// Whether the display's reader has fallen behind (``RenderOptions/writesInBackground``): more
    /// than half of what may wait is waiting. The producer's output should wait until it is not.
    package var outputIsBehind: Bool { writer?.isBehind ?? false }

    /// Polls readable once the display's reader has caught up after ``outputIsBehind`` was true
    /// (``takeOutputCaughtUp()`` takes it); -1 when there is nothing to wait for.
    package var outputCaughtUpDescriptor: Int32 { writer?.caughtUpDescriptor ?? -1 }

    /// Takes what made ``outputCaughtUpDescriptor`` readable.
    package func takeOutputCaughtUp() { writer?.takeCaughtUp() }

    /// Why writes to `stream` stopped (``FileDescriptorOutput/failure``: `EPIPE` when its reader
    /// went away, `ENOSPC` on a full disk); `nil` while it takes them.
    package func writeFailure(_ stream: StandardStream) -> Int32? {
        state.core.withLock { core in core.standardOutputs[stream].flatMap { $0.isBroken ? $0.failure : nil } }
    }

    /// The log file (``RenderOptions/logFile``) whose writes stopped, and why (`ENOSPC` on a full
    /// disk); `nil` while it takes them, or when there is none. Read it after ``finish()``, which
    /// writes the summary last.
    package func logFileFailure() -> (path: String, error: Int32)? {
        state.core.withLock { core in
            for case let log as LogFileRenderer in core.others {
                if let path = log.path, let error = log.writeFailure { return (path, error) }
            }
            return nil
        }
    }

    /// Counts an input problem and shows it once per kind: a dimmed line (plain mode: a warning
    /// line).
    public func report(_ diagnostic: Diagnostic) {
        report(diagnostic, sender: nil)
    }

    /// ``report(_:)`` for a problem in what `sender` (a connection of `activity run`) sent: the
    /// problem names it (``name(sender:as:)``).
    package func report(_ diagnostic: Diagnostic, sender: Int32?) {
        state.core.withLock { core in
            guard !core.isFinished else { return }
            let diagnostic = core.naming(diagnostic, sender: sender)
            core.store.count(diagnostic)
            core.renderer.report(diagnostic, in: core.store)
        }
    }

    /// Names the sender `sender` (a connection of `activity run`) in the diagnostics its lines
    /// raise from now on: `reporter build.sh (pid 4242)`; `nil` when it is not known.
    package func name(sender: Int32, as name: String?) {
        state.core.withLock { $0.senderNames[sender] = name }
    }

    /// A snapshot of the totals so far.
    public var summary: ActivitySummary {
        state.core.withLock { $0.store.summary }
    }

    /// Ends what is still open as `abandoned`, draws the final state, stops the timer, waits for
    /// plugins and restores the terminal. Idempotent and thread-safe: a call made while another
    /// is in progress returns when that one is done. Later events are ignored.
    public func finish() {
        // A second caller (a signal-watching thread racing the reading thread) waits until the
        // first is done, so that whoever returns first finds the terminal restored.
        finishing.withLock { done in
            guard !done else { return }
            finished.store(true, ordering: .releasing)
            timer?.stop()
            let now = clock()
            state.core.withLock { $0.finish(now: $0.streamTime(now)) }
            // Outside the lock: the reader may take its time.
            writer?.finish()
            if let signals {
                ProcessSignals.release(signals)
                TerminalClaim.display.release()
            }
            done = true
        }
    }

    /// Writes the sequence that restores the terminal (synchronized output off, colours reset,
    /// cursor shown) to the display of the session that owns the terminal, if any.
    ///
    /// Async-signal-safe: call it from a signal handler installed after the session started.
    public static func restoreTerminal() {
        ProcessSignals.restoreTerminals()
    }
}

/// The session's mutable state, behind one lock; shared with the timer thread.
final class SessionState: Sendable {
    let core: Mutex<SessionCore>
    /// The display terminal, polled for its size on every tick (SIGWINCH only wakes the timer).
    let watchedTerminal: (descriptor: Int32, environment: [String: String])?

    init(_ core: sending SessionCore, watchedTerminal: (descriptor: Int32, environment: [String: String])?) {
        self.core = Mutex(core)
        self.watchedTerminal = watchedTerminal
    }

    func tick(now: Double) {
        let watched = watchedTerminal
        core.withLock { core in
            let now = core.streamTime(now)
            if let watched, let terminal = core.terminal {
                terminal.resize(
                    to: TerminalSize(TerminalDevice.size(of: watched.descriptor, environment: watched.environment)))
                if TerminalClaim.display.consumeRestored() { terminal.cursorWasShown() }
                if TerminalClaim.display.consumeResumed() { terminal.resumedAfterStop() }
            }
            core.renderer.tick(core.store, now: now)
            // A line the tick wrote (plain mode's held begin) is not left in the batch until the
            // reading thread's next read returns.
            _ = core.batch?.flush()
            core.deliverNotices()
        }
    }
}

/// What the lock guards: the store and the renderers.
final class SessionCore {
    // Lent `inout` to the fold for every event. The session's lock already makes each access
    // exclusive; the run-time check would cost about a tenth of the whole fold.
    @exclusivity(unchecked) var store = ActivityStore()
    let renderer: MultiplexRenderer
    let plugins: [PluginHost]
    let others: [any ActivityRenderer]
    let terminal: TerminalRenderer?
    /// Notes the runs for the history file, and writes it at the end.
    let history: HistoryRecorder?
    /// The outputs of the standard streams that the session's own renderers write to.
    let standardOutputs: [StandardStream: FileDescriptorOutput]
    /// Where the display's and the standard streams' writes are gathered, if they are.
    let batch: OutputBatch?
    @exclusivity(unchecked) private var updates: [ActivityUpdate] = []
    /// Set by ``finish(now:)``: from then on, what comes is dropped, so that what was written
    /// before the summary is all that is written (a signal's finish races the reading thread).
    private(set) var isFinished = false
    /// Events applied through the fast path since the clock was last read.
    var eventsSinceClock = 0
    /// How each sender (a connection of `activity run`) is named in diagnostics.
    var senderNames: [Int32: String] = [:]

    /// `diagnostic` with `sender`'s name as its source, when it has one.
    func naming(_ diagnostic: Diagnostic, sender: Int32?) -> Diagnostic {
        guard diagnostic.source == nil, let sender, let name = senderNames[sender] else { return diagnostic }
        var named = diagnostic
        named.source = name
        return named
    }

    /// Keeps the store's ``ActivityStore/clockOffset``, so that elapsed times and abandoned ends
    /// are in the stream's own time.
    func noteArrival(eventTime: Double, arrival: Double) {
        let offset = eventTime - arrival
        store.clockOffset = abs(offset) > 1 ? offset : 0
    }

    /// `now` on the stream's clock (``ActivityStore/streamTime(_:)``).
    func streamTime(_ now: Double) -> Double { store.streamTime(now) }

    init(
        renderers: [any ActivityRenderer], plugins: [PluginHost], terminal: TerminalRenderer?,
        standardOutputs: [StandardStream: FileDescriptorOutput] = [:], history: HistoryRecorder? = nil,
        batch: OutputBatch? = nil
    ) {
        self.batch = batch
        self.history = history
        self.standardOutputs = standardOutputs
        self.others = renderers
        self.plugins = plugins
        self.terminal = terminal
        self.renderer = MultiplexRenderer(renderers + plugins)
    }

    /// Returns whether the event was taken (not skipped as another reporter's).
    @discardableResult
    func apply(_ event: ActivityEvent, line: Int, sender: Int32? = nil, owner: ActivityOwner? = nil) -> Bool {
        fold(sender: sender) { store, updates in
            store.apply(event, line: line, sender: sender, owner: owner) { updates.append($0) }
        }
    }

    @discardableResult
    func apply(_ event: LineEvent, line: Int, sender: Int32? = nil) -> Bool {
        fold(sender: sender) { store, updates in store.apply(event, line: line, sender: sender) { updates.append($0) } }
    }

    /// Ends what `owner` began as abandoned; returns the ids ended.
    func abandon(ownedBy owner: ActivityOwner, at time: Double) -> [ActivityID] {
        var ended: [ActivityID] = []
        fold { store, updates in
            let diagnostics = store.abandon(ownedBy: owner, at: time) { updates.append($0) }
            ended = updates.compactMap { $0.kind == .end ? $0.handle.flatMap { store[$0]?.id } : nil }
            return diagnostics
        }
        return ended
    }

    /// Runs `body` with the store and the update buffer lent as `inout`: handing a renderer
    /// `self.store` would copy the store (a retain of each of its arrays) for every update, since
    /// a class's property might change during the call; an `inout` parameter is lent as it is.
    @inline(__always)
    private func withLocalStore(_ body: (inout ActivityStore, inout [ActivityUpdate]) -> Void) {
        while updates.popLast() != nil {}
        body(&store, &updates)
    }

    /// Folds one event (`apply` adds its updates and returns its diagnostics) and hands what it
    /// made to the renderers, with the store lent (``withLocalStore(_:)``); the diagnostics name
    /// `sender` when it has a name. Returns whether the event was taken: not skipped as another
    /// reporter's.
    @inline(__always)
    @discardableResult
    private func fold(
        sender: Int32? = nil, _ apply: (inout ActivityStore, inout [ActivityUpdate]) -> [Diagnostic]
    ) -> Bool {
        guard !isFinished else { return false }
        var taken = true
        withLocalStore { store, updates in
            let diagnostics = apply(&store, &updates)
            // By index: iterating would retain the buffer and copy each update.
            for index in updates.indices { renderer.render(updates[index], in: store) }
            for diagnostic in diagnostics {
                if diagnostic.code == .notOwner { taken = false }
                renderer.report(naming(diagnostic, sender: sender), in: store)
            }
        }
        if !plugins.isEmpty { deliverNotices() }
        return taken
    }

    /// Shows what plugins have to say about themselves (one notice when one dies).
    func deliverNotices() {
        for plugin in plugins {
            for notice in plugin.takeNotices() { renderer.notice(notice, in: store) }
        }
    }

    func finish(now: Double) {
        // Whatever else happens, nothing gathered is lost.
        defer { _ = batch?.end() }
        guard !isFinished else { return }
        isFinished = true
        updates.removeAll()
        store.finish(at: now) { updates.append($0) }
        for update in updates { renderer.render(update, in: store) }
        for plugin in plugins { plugin.finish(store, now: now) }
        deliverNotices()
        for warning in history?.save() ?? [] { renderer.notice(warning, in: store) }
        for other in others { other.finish(store, now: now) }
    }
}

/// In the log and JSON-lines display modes: writes passed-through output of streams other than
/// the display to their own descriptors, byte for byte (on a terminal: line by line, sanitized).
final class StreamPassthrough: ActivityRenderer {
    let display: Int32
    private let outputs: [StandardStream: FileDescriptorOutput]
    private var lines: [StandardStream: LineSplitter] = [:]

    init(display: Int32, outputs: [StandardStream: FileDescriptorOutput]) {
        self.display = display
        self.outputs = outputs
    }

    func render(_ update: ActivityUpdate, in store: ActivityStore) {}

    func passthrough(_ bytes: [UInt8], to stream: StandardStream, in store: ActivityStore) {
        guard stream.fileDescriptor != display, let output = outputs[stream] else { return }
        guard TerminalDevice.isTerminal(output.fileDescriptor) else { return _ = output.write(bytes) }
        var splitter = lines[stream] ?? LineSplitter(maxLineBytes: WireLimits.maxAcceptedLineBytes)
        splitter.feed(bytes) { output.write(TerminalSanitizer.display(bytes: Array($0.bytes)) + [0x0A]) }
        lines[stream] = splitter
    }

    func finish(_ store: ActivityStore, now: Double) {
        for (stream, var splitter) in lines {
            splitter.finish { outputs[stream]?.write(TerminalSanitizer.display(bytes: Array($0.bytes)) + [0x0A]) }
        }
        lines.removeAll()
    }
}

extension RenderSession {
    /// Where each stream's passed-through lines go when the terminal renderer draws on `display`.
    static func passthroughTargets(
        display: Int32, tty: Bool, outputs: [StandardStream: FileDescriptorOutput]
    ) -> [StandardStream: TerminalRenderer.PassthroughTarget] {
        var targets: [StandardStream: TerminalRenderer.PassthroughTarget] = [:]
        let displayIsTerminal = TerminalDevice.isTerminal(display)
        for stream in [StandardStream.stdout, .stderr] {
            let descriptor = stream.fileDescriptor
            if descriptor == display {
                targets[stream] = .display
                continue
            }
            let isTerminal = TerminalDevice.isTerminal(descriptor)
            if tty && isTerminal && displayIsTerminal && TerminalDevice.sameDevice(descriptor, display) {
                // The same terminal: the line goes into the next frame, above the live region,
                // in the same write, so the region never flickers.
                targets[stream] = .display
                continue
            }
            guard let output = outputs[stream] else { continue }
            targets[stream] = .output(output, sanitize: isTerminal, sharesTerminal: false)
        }
        return targets
    }
}
