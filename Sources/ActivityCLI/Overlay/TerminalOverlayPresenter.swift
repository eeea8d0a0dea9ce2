import ActivityOverlay
import ActivityOverlayTerminal
import ActivityPOSIX
import ActivityRendering
import ActivityTerminal
import ActivityWire
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the terminal overlay cannot start.
struct TerminalOverlayError: Error, CustomStringConvertible, Sendable {
    var description: String
}

/// `--mode overlay`: the loading overlay, drawn in a terminal.
///
/// While work runs past the grace period, the presenter switches to the alternate screen (so the
/// session's text is untouched and comes back afterwards), paints it grey when the work asked to
/// dim, and draws a centred box with a spinner or a bar, the label, the message and "Esc to cancel"
/// when the work is cancellable. While the work blocks input, the input terminal is put in
/// non-canonical, no-echo mode and every keystroke is read and thrown away (Esc requests
/// cancellation; Ctrl-C still interrupts). The terminal is restored when the overlay hides, on
/// ``finish()``, at exit, and on SIGINT, SIGTERM, SIGHUP and SIGQUIT; on Ctrl-Z it is given back
/// while the process is stopped, and taken again when it continues.
///
/// ```swift
/// let overlay = try TerminalOverlayPresenter(
///     environment: ProcessInfo.processInfo.environment, outputFD: 2, inputFD: open("/dev/tty", O_RDWR)
/// ) { ids in requestCancel(ids) }
/// for event in events { overlay.handle(event) }
/// overlay.finish()
/// ```
final class TerminalOverlayPresenter: Sendable {
    private struct Core: Sendable {
        var model: OverlayModel
        var columns = 80
        var rows = 24
        var inAlternateScreen = false
        var rawInput = false
        var savedInput = termios()
        var lastFrame = ""
        var finished = false
        /// Whether the wake-up pipe is closed (after the thread has ended).
        var closed = false
        /// Lines that arrived while the alternate screen hid the session, written when it leaves.
        var held = HeldOutput(limit: TerminalOverlayPresenter.heldLimit)
        /// The unfinished passed-through line of each stream.
        var passthroughLines: [StandardStream: LineSplitter] = [:]
    }

    private let core: Mutex<Core>
    private let outputFD: Int32
    private let inputFD: Int32?
    private let unicode: Bool
    private let color: Bool
    private let onCancel: @Sendable ([ActivityID]) -> Void
    private let scheduler: any OverlayScheduler
    private let wakeUp: WakeUpPipe
    private let driverDone = DispatchSemaphore(value: 0)
    private let driverThread = Atomic<UInt>(0)
    private let registeredSignals: Bool
    /// The Esc taps the driver thread has read and applied, and the bytes written to the
    /// terminal: what a test waits for, or finds unchanged, instead of sleeping.
    private let taps = Atomic<Int>(0)
    private let written = Atomic<Int>(0)

    /// How often a spinner moves, and how often the size of the terminal is checked while visible.
    static let frameInterval = 100
    /// The most text held back while the alternate screen is shown.
    static let heldLimit = 1 << 20

    /// Prepares the overlay; nothing is drawn until work has run past the grace period.
    ///
    /// - Parameters:
    ///   - environment: `TERM`, `NO_COLOR`, `CLICOLOR`, `LC_ALL`/`LC_CTYPE`/`LANG` (UTF-8 or ASCII),
    ///     `COLUMNS`/`LINES` (when the terminal does not say its size).
    ///   - outputFD: The terminal to draw on. It must be a terminal.
    ///   - inputFD: The terminal whose keystrokes are swallowed while the work blocks input, or `nil`
    ///     (no key is read, Esc cannot cancel). Ignored when it is not a terminal.
    ///   - configuration: The overlay's timings.
    ///   - scheduler: The clock of the overlay's timings. Only its time is taken: the command
    ///     services no main actor, so the presenter's own thread waits for each deadline and
    ///     reads the time from the scheduler when it wakes. Tests pass a
    ///     `ManualOverlayScheduler`, move its time and call ``tick()``.
    ///   - onCancel: Called, from the presenter's thread, with the activities to cancel.
    /// - Throws: ``TerminalOverlayError`` when `outputFD` is not a terminal or `TERM` is `dumb`.
    init(
        environment: [String: String], outputFD: Int32, inputFD: Int32?,
        configuration: OverlayConfiguration = OverlayConfiguration(),
        scheduler: any OverlayScheduler = ContinuousClockOverlayScheduler(),
        onCancel: @escaping @Sendable ([ActivityID]) -> Void
    ) throws {
        guard isatty(outputFD) == 1 else {
            throw TerminalOverlayError(
                description: "--mode overlay needs a terminal to draw on (use --mode overlay-jsonl to feed a UI)")
        }
        let capabilities = TerminalCapabilities.detect(environment: environment, isTerminal: true)
        guard capabilities.cursorMovement else {
            throw TerminalOverlayError(
                description: "--mode overlay needs a terminal that can move the cursor (TERM=dumb)")
        }
        self.outputFD = outputFD
        self.inputFD = inputFD.flatMap { isatty($0) == 1 ? $0 : nil }
        self.scheduler = scheduler
        self.onCancel = onCancel
        unicode = capabilities.unicode
        color = capabilities.color
        do {
            wakeUp = try WakeUpPipe()
        } catch {
            throw TerminalOverlayError(description: "cannot create a pipe: \(error.reason)")
        }
        var core = Core(model: OverlayModel(configuration: configuration))
        (core.columns, core.rows) = TerminalDevice.size(of: outputFD, environment: environment)
        self.core = Mutex(core)
        registeredSignals = TerminalRestore.register(outputFD: outputFD, inputFD: self.inputFD)
        if !HelperThread.detach(named: "activity.overlay", { [self] in drive() }) {
            driverDone.signal()
        }
    }

    /// Applies one event. Thread-safe.
    func handle(_ event: ActivityEvent) {
        apply(.event(event))
    }

    /// Ends the overlay and restores the terminal: the main screen, the cursor and the input
    /// settings. Waits for the presenter's thread. Idempotent; thread-safe.
    func finish() {
        let first = core.withLock { core -> Bool in
            guard !core.finished else { return false }
            core.finished = true
            for (stream, var splitter) in core.passthroughLines {
                splitter.finish { line in core.held.append(TerminalSanitizer.display(bytes: Array(line.bytes)) + [0x0A])
                }
                core.passthroughLines[stream] = nil
            }
            // Waits out a handler at work (a Ctrl-Z under way) rather than skip: the lines held
            // back must still reach the shell's screen.
            let restore = { (core: inout Core) in
                var output: [UInt8] = []
                self.setRawInput(false, &core)
                self.leave(&core, into: &output)
                self.write(output, alternateScreen: false)
            }
            if registeredSignals {
                _ = TerminalRestore.draw(waiting: true) { restore(&core) }
            } else {
                restore(&core)
            }
            wake(&core)
            return true
        }
        guard first else { return }
        if registeredSignals { TerminalRestore.unregister() }
        // Called from `onCancel`, on the presenter's own thread: that thread closes the pipe as it ends.
        guard !isDriverThread else { return }
        driverDone.wait()
        closePipe()
    }

    /// Whether the caller is the presenter's thread.
    private var isDriverThread: Bool {
        driverThread.load(ordering: .acquiring) == UInt(bitPattern: Int(bitPattern: pthread_self()))
    }

    private func closePipe() {
        core.withLock { core in
            guard !core.closed else { return }
            wakeUp.close()
            core.closed = true
        }
    }

    /// Writes output that is not an event, line by line and sanitized (the output is a terminal).
    /// While the overlay hides the session it is held back, and written when the overlay hides
    /// (at most ``heldLimit`` bytes; the oldest go first).
    func passthrough(_ bytes: [UInt8], from stream: StandardStream) {
        core.withLock { core in
            var splitter = core.passthroughLines[stream] ?? LineSplitter(maxLineBytes: WireLimits.maxAcceptedLineBytes)
            splitter.feed(bytes) { show(Array($0.bytes), &core) }
            core.passthroughLines[stream] = splitter
        }
    }

    /// Writes one line (a problem in the stream, a line of output), sanitized, or holds it.
    func show(_ line: [UInt8]) {
        core.withLock { core in show(line, &core) }
    }

    private func show(_ line: [UInt8], _ core: inout Core) {
        let bytes = TerminalSanitizer.display(bytes: line) + [UInt8(ascii: "\n")]
        guard core.inAlternateScreen else { return write(bytes, alternateScreen: false) }
        core.held.append(bytes)
    }

    // MARK: - The driver thread

    private var now: Int { scheduler.now() }

    /// Applies the scheduler's time now, as the driver thread does when a deadline comes.
    func tick() { apply(.tick) }

    /// How many lone Esc keys the presenter has read from the keyboard and applied.
    var cancelTaps: Int { taps.load(ordering: .acquiring) }

    /// How many bytes the presenter has written to the terminal.
    var bytesWritten: Int { written.load(ordering: .acquiring) }

    private func apply(_ input: OverlayInput) {
        let cancels = core.withLock { core -> [[ActivityID]] in
            guard !core.finished else { return [] }
            let effects = core.model.reduce(input, at: now)
            present(&core)
            wake(&core)
            return effects.compactMap { if case .cancelRequested(let ids) = $0 { ids } else { nil } }
        }
        for ids in cancels { onCancel(ids) }
    }

    /// Sleeps until the next deadline, the next spinner frame, a keystroke or a wake-up, then ticks.
    private func drive() {
        driverThread.store(UInt(bitPattern: Int(bitPattern: pthread_self())), ordering: .releasing)
        defer {
            if isDriverThread, core.withLock({ $0.finished }) { closePipe() }
            driverDone.signal()
        }
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let (timeout, reading) =
                core.withLock { core -> (Int32, Bool)? in
                    guard !core.finished else { return nil }
                    var wait = core.model.nextDeadline.map { max(0, $0 - now) } ?? -1
                    if core.model.state.isVisible {
                        wait = wait < 0 ? Self.frameInterval : min(wait, Self.frameInterval)
                    }
                    return (Int32(clamping: wait), core.rawInput)
                } ?? (-2, false)
            guard timeout != -2 else { return }
            var fds = [pollfd(fd: wakeUp.readEnd, events: Int16(POLLIN), revents: 0)]
            if reading, let inputFD { fds.append(pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0, errno != EINTR { return }
            if fds[0].revents != 0 { wakeUp.drain() }
            var escape = false
            if fds.count > 1, fds[1].revents & Int16(POLLIN) != 0, let inputFD {
                if case .bytes(let count)? = try? SystemCall.read(inputFD, into: &buffer) {
                    escape = Self.containsEscape(buffer[..<count])
                }
            }
            apply(escape ? .cancelTapped : .tick)
            if escape { taps.add(1, ordering: .releasing) }
        }
    }

    /// Makes the thread recompute its timeout. Called with the lock held, so the pipe is open.
    private func wake(_ core: inout Core) {
        guard !core.closed else { return }
        wakeUp.wake()
    }

    /// Whether a read from the keyboard holds a lone Esc (not the start of an arrow key's sequence).
    static func containsEscape(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            defer { index += 1 }
            guard bytes[index] == 0x1B else { continue }
            let next = index + 1 < bytes.endIndex ? bytes[index + 1] : nil
            guard next == UInt8(ascii: "[") || next == UInt8(ascii: "O") else { return true }
            index += 2
            while index < bytes.endIndex, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
        }
        return false
    }

    // MARK: - Drawing

    /// Brings the terminal in line with the model's state. Called with the lock held.
    private func present(_ core: inout Core) {
        guard registeredSignals else { return update(&core) }
        // Skipped while a handler gives the terminal back (Ctrl-Z); the next tick draws.
        _ = TerminalRestore.draw {
            if TerminalRestore.wasInterrupted {  // a signal handler restored the terminal
                core.inAlternateScreen = false
                core.rawInput = false
                return
            }
            if TerminalRestore.consumeResumed() {  // back from Ctrl-Z: take the terminal again
                core.inAlternateScreen = false
                core.rawInput = false
                core.lastFrame = ""
            }
            update(&core)
        }
    }

    private func update(_ core: inout Core) {
        let state = core.model.state
        var output: [UInt8] = []
        setRawInput(state.blocksInput, &core)
        let foreground = tcgetpgrp(outputFD)
        let inBackground = foreground != -1 && foreground != getpgrp()  // after `bg`: leave the shell alone
        if state.isVisible, !inBackground {
            (core.columns, core.rows) = TerminalDevice.size(
                of: outputFD, environment: [:], fallback: (core.columns, core.rows))
            if !core.inAlternateScreen {
                output += Array("\u{1B}[?1049h\u{1B}[?25l".utf8)
                core.inAlternateScreen = true
                core.lastFrame = ""
            }
            let frame = OverlayTerminalFrame(
                state: state, columns: core.columns, rows: core.rows, unicode: unicode, color: color,
                tick: now / Self.frameInterval
            ).render()
            if frame != core.lastFrame {
                output += Array(frame.utf8)
                core.lastFrame = frame
            }
        } else {
            leave(&core, into: &output)
        }
        write(output, alternateScreen: core.inAlternateScreen)
    }

    /// Leaves the alternate screen and writes the lines held back meanwhile.
    private func leave(_ core: inout Core, into output: inout [UInt8]) {
        guard core.inAlternateScreen else { return }
        output += TerminalRestore.leaveSequence
        core.inAlternateScreen = false
        core.lastFrame = ""
        output += core.held.takeAll()
    }

    /// Switches the input terminal between its own settings and no-echo, non-canonical reading.
    /// A background process of that terminal leaves it alone (it would be stopped by SIGTTOU).
    private func setRawInput(_ on: Bool, _ core: inout Core) {
        guard let inputFD, on != core.rawInput else { return }
        if on {
            let foreground = tcgetpgrp(inputFD)
            guard foreground == -1 || foreground == getpgrp() else { return }
            // The signal handler knows what to put back before the settings change.
            let registered = registeredSignals
            guard
                let saved = TerminalSettings.readKeyByKey(
                    inputFD, noting: { if registered { TerminalRestore.saveTermios($0) } })
            else {
                if registeredSignals { TerminalRestore.clearTermios() }
                return
            }
            core.savedInput = saved
            core.rawInput = true
        } else {
            TerminalSettings.restore(inputFD, to: core.savedInput)
            if registeredSignals { TerminalRestore.clearTermios() }
            core.rawInput = false
        }
    }

    /// Writes every byte, retrying after interruptions; a terminal that has gone away is ignored.
    /// The signal handler learns of the alternate screen before it is entered and after it is left,
    /// so an interruption at any point leaves the terminal restored.
    private func write(_ bytes: [UInt8], alternateScreen: Bool) {
        if alternateScreen, registeredSignals { TerminalRestore.setAlternateScreen(true) }
        defer { if !alternateScreen, registeredSignals { TerminalRestore.setAlternateScreen(false) } }
        // A terminal that takes nothing for a second (paused, gone) loses this frame, not the
        // overlay's timing.
        let fd = outputFD
        written.add(bytes.count, ordering: .releasing)
        _ = bytes.withUnsafeBytes { raw in
            SystemCall.writeAll(fd, raw) { stalls, _ in
                guard stalls <= 100 else { return false }
                SystemCall.waitUntilWritable(fd, milliseconds: 10)
                return true
            }
        }
    }
}
