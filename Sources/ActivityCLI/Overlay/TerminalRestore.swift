import ActivityTerminal
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The overlay's use of the process's signal handlers (`ProcessSignals`): what must be undone if
/// the process is interrupted while the overlay owns the terminal (the alternate screen, the
/// input's raw settings) goes into the overlay's `TerminalClaim`, and SIGINT, SIGTERM, SIGHUP,
/// SIGQUIT and SIGTSTP are claimed. On those the handler restores the terminal, then passes the
/// signal on as if we had never been there. A signal the program ignored stays ignored, and the
/// terminal stays as it is. Ctrl-Z (SIGTSTP) gives the terminal back while the process is
/// stopped; the presenter takes it again when the process continues.
enum TerminalRestore {
    /// The sequence that leaves the overlay: end a synchronized update, reset colours, leave the
    /// alternate screen, show the cursor.
    static let leaveSequence: [UInt8] = Array("\u{1B}[?2026l\u{1B}[0m\u{1B}[?1049l\u{1B}[?25h".utf8)

    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP]

    private static let claimed = Mutex<[Int32]>([])
    private static let inputFD = Atomic<Int32>(-1)
    private static var claim: TerminalClaim { .overlay }

    /// Registers the terminal of a presenter. Returns `false` when another one is registered.
    static func register(outputFD: Int32, inputFD: Int32?) -> Bool {
        guard claim.take(output: outputFD, bytes: leaveSequence) else { return false }
        Self.inputFD.store(inputFD ?? -1, ordering: .releasing)
        claimed.withLock { $0 = ProcessSignals.claim(signals) }
        ProcessSignals.restoreAtExit()
        return true
    }

    /// Unregisters, and gives up the signals.
    static func unregister() {
        claimed.withLock { claimed in
            ProcessSignals.release(claimed)
            claimed = []
        }
        claim.release()
    }

    /// Whether the process has been stopped and continued since the last call: the terminal was
    /// given back to the shell meanwhile, and must be taken again.
    static func consumeResumed() -> Bool { claim.consumeResumed() }

    /// Runs `body`, which draws or changes the input settings, where no signal handler restores
    /// the terminal halfway through it (``TerminalClaim/draw(waiting:_:)``).
    static func draw(waiting: Bool = false, _ body: () -> Void) -> Bool { claim.draw(waiting: waiting, body) }

    /// Whether a signal handler has restored the terminal since registration.
    static var wasInterrupted: Bool { claim.wasRestored }

    static func setAlternateScreen(_ on: Bool) { claim.setShown(on) }

    /// Records the settings to put back, before the input terminal goes raw.
    static func saveTermios(_ settings: termios) {
        claim.saveInput(settings, of: inputFD.load(ordering: .acquiring))
    }

    static func clearTermios() { claim.clearInput() }
}
