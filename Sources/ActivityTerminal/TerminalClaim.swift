import ActivityPOSIX
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one drawer has changed on the terminal and a signal must undo, kept where
/// ``ProcessSignals``' handler reaches it without locking or allocating: the bytes that undo the
/// drawing, the input settings to put back, and the flags through which the drawer learns what a
/// handler did (restored the terminal, gave it back for Ctrl-Z, was continued).
///
/// There is one claim per kind of drawer, for the life of the process; one drawer at a time owns
/// it (``take(output:bytes:wake:)`` returns `false` while another does).
package final class TerminalClaim: Sendable {
    /// The live TTY display: its restore bytes are written on every signal that ends or
    /// interrupts the program, since the display draws again if the program carries on.
    package static let display = TerminalClaim(tracksShown: false, restoresAtExit: false)
    /// The overlay: its bytes (leave the alternate screen) only while it is shown, its input
    /// settings only while raw; also at exit.
    package static let overlay = TerminalClaim(tracksShown: true, restoresAtExit: true)

    /// Calls `body` with every claim, for the handler. No array: iterating one runs generic
    /// code that allocates in a debug build, and a handler that interrupts `malloc` and calls
    /// it again waits on the allocator's lock for ever (a SIGWINCH while `run` drew its screen).
    static func forEach(_ body: (TerminalClaim) -> Void) {
        body(display)
        body(overlay)
    }

    private static let capacity = 128

    /// Whether restore bytes are written only while ``setShown(_:)`` says the drawing is shown.
    private let tracksShown: Bool
    let restoresAtExit: Bool
    private let owned = Atomic<Bool>(false)
    private let output = Atomic<Int32>(-1)
    private let input = Atomic<Int32>(-1)
    /// The write end of the drawer's wake-up pipe (a redraw timer); -1 for none.
    private let wake = Atomic<Int32>(-1)
    private let count = Atomic<Int>(0)
    private let shown = Atomic<Bool>(false)
    private let rawInput = Atomic<Bool>(false)
    private let restored = Atomic<Bool>(false)
    private let suspending = Atomic<Bool>(false)
    private let resumed = Atomic<Bool>(false)
    /// How many drawers are inside ``draw(waiting:_:)``: a display that writes on a thread of
    /// its own draws a frame on one thread and writes it on another.
    private let drawing = Atomic<Int>(0)
    /// How many handlers are restoring the terminal now.
    private let restoring = Atomic<Int>(0)
    nonisolated(unsafe) private let bytes: UnsafeMutableBufferPointer<UInt8>
    nonisolated(unsafe) private let savedInput: UnsafeMutablePointer<termios>

    init(tracksShown: Bool, restoresAtExit: Bool) {
        self.tracksShown = tracksShown
        self.restoresAtExit = restoresAtExit
        bytes = .allocate(capacity: Self.capacity)
        bytes.initialize(repeating: 0)
        savedInput = .allocate(capacity: 1)
        savedInput.initialize(to: termios())
    }

    /// Takes the claim for a drawer on `output`, whose restore sequence is `bytes` (at most 128)
    /// and whose redraw timer is woken through `wake`. Returns `false` when another drawer has it.
    package func take(output: Int32, bytes restore: [UInt8], wake: Int32 = -1) -> Bool {
        precondition(restore.count <= Self.capacity, "a restore sequence is at most \(Self.capacity) bytes")
        guard owned.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return false
        }
        _ = (Self.display, Self.overlay)
        // No handler writes while `count` is 0, so the bytes are copied in safely.
        count.store(0, ordering: .releasing)
        _ = bytes.update(fromContentsOf: restore)
        count.store(restore.count, ordering: .releasing)
        self.output.store(output, ordering: .releasing)
        self.wake.store(wake, ordering: .releasing)
        shown.store(false, ordering: .releasing)
        rawInput.store(false, ordering: .releasing)
        restored.store(false, ordering: .releasing)
        suspending.store(false, ordering: .releasing)
        resumed.store(false, ordering: .releasing)
        return true
    }

    /// Lets go of the claim: the handlers touch this drawer's terminal no more.
    package func release() {
        count.store(0, ordering: .releasing)
        rawInput.store(false, ordering: .releasing)
        shown.store(false, ordering: .releasing)
        output.store(-1, ordering: .releasing)
        wake.store(-1, ordering: .releasing)
        owned.store(false, ordering: .releasing)
    }

    package var isOwned: Bool { owned.load(ordering: .acquiring) }

    /// Whether what the restore bytes undo is on screen now (the overlay's alternate screen).
    package func setShown(_ on: Bool) { shown.store(on, ordering: .releasing) }

    /// Records the settings to put back on `input`, before it goes raw.
    package func saveInput(_ settings: termios, of input: Int32) {
        rawInput.store(false, ordering: .releasing)
        savedInput.pointee = settings
        self.input.store(input, ordering: .releasing)
        rawInput.store(true, ordering: .releasing)
    }

    /// The input is back in its own settings.
    package func clearInput() { rawInput.store(false, ordering: .releasing) }

    /// Whether a handler restored the terminal since the claim was taken (sticky: the overlay
    /// draws no more).
    package var wasRestored: Bool { restored.load(ordering: .acquiring) }

    /// Whether a handler restored the terminal since the last call (the display hides its
    /// cursor again with the next frame).
    package func consumeRestored() -> Bool { restored.exchange(false, ordering: .acquiringAndReleasing) }

    /// Whether the process was stopped and continued since the last call: take the terminal again.
    package func consumeResumed() -> Bool { resumed.exchange(false, ordering: .acquiringAndReleasing) }

    /// Runs `body`, which draws on the terminal or changes its settings, where no signal handler
    /// comes in the middle: the signals whose handler restores the terminal are blocked in this
    /// thread meanwhile, and a handler on another thread waits for `body` to end before it
    /// restores the terminal. Without this, a frame begun before a Ctrl-Z lands after the
    /// handler left the alternate screen (on the shell's screen, once the process continues), or
    /// raw input is set again behind the handler's back.
    ///
    /// While a handler is at work (for Ctrl-Z, from the key until the process is continued),
    /// `body` is skipped and `false` returned; with `waiting`, it runs once the handler is done.
    package func draw(waiting: Bool = false, _ body: () throws -> Void) rethrows -> Bool {
        var mask = sigset_t()
        while true {
            pthread_sigmask(SIG_BLOCK, ProcessSignals.restoringTerminals, &mask)
            // Sequentially consistent, as is the handler's side: either it sees `drawing` and
            // waits, or this sees it at work and keeps off.
            drawing.add(1, ordering: .sequentiallyConsistent)
            if restoring.load(ordering: .sequentiallyConsistent) == 0,
                !suspending.load(ordering: .sequentiallyConsistent)
            {
                break
            }
            drawing.subtract(1, ordering: .sequentiallyConsistent)
            pthread_sigmask(SIG_SETMASK, &mask, nil)
            guard waiting else { return false }
            SystemClock.sleep(seconds: 0.001)
        }
        defer {
            drawing.subtract(1, ordering: .sequentiallyConsistent)
            pthread_sigmask(SIG_SETMASK, &mask, nil)
        }
        try body()
        return true
    }

    // MARK: - For the handler (async-signal-safe)

    /// Writes the restore bytes and puts the input settings back, as far as they are due, once
    /// no drawer is in the middle of drawing.
    func restore(markingRestored: Bool) {
        guard owned.load(ordering: .acquiring) else { return }
        restoring.add(1, ordering: .sequentiallyConsistent)
        defer { restoring.subtract(1, ordering: .sequentiallyConsistent) }
        waitForDrawer()
        if rawInput.exchange(false, ordering: .acquiringAndReleasing) {
            _ = tcsetattr(input.load(ordering: .acquiring), TCSANOW, savedInput)
        }
        let count = count.load(ordering: .acquiring)
        let output = output.load(ordering: .acquiring)
        if count > 0, output >= 0, !tracksShown || shown.exchange(false, ordering: .acquiringAndReleasing) {
            _ = write(output, bytes.baseAddress, count)
        }
        if markingRestored { restored.store(true, ordering: .releasing) }
    }

    func beginSuspend() {
        guard owned.load(ordering: .acquiring) else { return }
        suspending.store(true, ordering: .sequentiallyConsistent)
    }

    /// Waits for a drawer on another thread to leave ``draw(waiting:_:)``: a frame's write does
    /// not take long, but a terminal that takes nothing (paused with Ctrl-S) must not keep the
    /// handler forever, so it gives up after two seconds.
    /// A signal handler runs it: its sleep is the async-signal-safe one.
    private func waitForDrawer() {
        for _ in 0..<2000 where drawing.load(ordering: .sequentiallyConsistent) > 0 {
            SystemClock.sleepInSignalHandler(nanoseconds: 1_000_000)
        }
    }

    func endSuspend() {
        guard owned.load(ordering: .acquiring) else { return }
        resumed.store(true, ordering: .releasing)
        suspending.store(false, ordering: .sequentiallyConsistent)
    }

    /// Wakes the drawer's redraw timer.
    func wakeUp() {
        let descriptor = wake.load(ordering: .acquiring)
        guard descriptor >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
    }
}
