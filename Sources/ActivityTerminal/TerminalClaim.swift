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

    /// Every claim, for the handler: fixed storage, so reading it is safe in a signal handler.
    static let all: [TerminalClaim] = [display, overlay]

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
        _ = Self.all
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

    /// Whether Ctrl-Z is giving the terminal back: draw nothing until it is over.
    package var isSuspending: Bool { suspending.load(ordering: .acquiring) }

    /// Whether the process was stopped and continued since the last call: take the terminal again.
    package func consumeResumed() -> Bool { resumed.exchange(false, ordering: .acquiringAndReleasing) }

    // MARK: - For the handler (async-signal-safe)

    /// Writes the restore bytes and puts the input settings back, as far as they are due.
    func restore(markingRestored: Bool) {
        guard owned.load(ordering: .acquiring) else { return }
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
        suspending.store(true, ordering: .releasing)
    }

    func endSuspend() {
        guard owned.load(ordering: .acquiring) else { return }
        resumed.store(true, ordering: .releasing)
        suspending.store(false, ordering: .releasing)
    }

    /// Wakes the drawer's redraw timer.
    func wakeUp() {
        let descriptor = wake.load(ordering: .acquiring)
        guard descriptor >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
    }
}
