import ActivityTerminal
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the signal handlers need, in memory they can touch without locks or allocation.
enum SignalRelay {
    /// The display descriptor of the session that owns the terminal; -1 for none.
    static let restoreDescriptor = Atomic<Int32>(-1)
    /// The write end of the redraw timer's wake-up pipe; -1 for none.
    static let wakeDescriptor = Atomic<Int32>(-1)
    /// Set by the handlers when they showed the cursor.
    static let cursorRestored = Atomic<Bool>(false)
    /// Whether a session owns the handlers.
    static let owned = Atomic<Bool>(false)
    /// Whether the owning session shows progress in the terminal's taskbar, to clear on a signal.
    static let clearsTaskbar = Atomic<Bool>(false)

    nonisolated(unsafe) static let clearTaskbarBytes: UnsafeMutableBufferPointer<UInt8> = {
        let bytes = TaskbarProgress.cleared.sequence
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        return buffer
    }()

    nonisolated(unsafe) static let restoreBytes: UnsafeMutableBufferPointer<UInt8> = {
        // Autowrap is off only inside a frame; a signal may come in the middle of one.
        let bytes = Array("\u{1B}[?2026l\u{1B}[0m\u{1B}[?7h\u{1B}[?25h".utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        return buffer
    }()

    /// The dispositions found when the handlers were installed, by signal number.
    nonisolated(unsafe) static let previous: UnsafeMutablePointer<sigaction> = {
        let pointer = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        pointer.initialize(repeating: sigaction(), count: 65)
        return pointer
    }()

    /// Writes the restore sequence to the owning session's display. Async-signal-safe.
    static func restoreTerminal() {
        let descriptor = restoreDescriptor.load(ordering: .acquiring)
        guard descriptor >= 0 else { return }
        // The cursor already rests at the start of a fresh row, under the live region.
        _ = write(descriptor, restoreBytes.baseAddress, restoreBytes.count)
        if clearsTaskbar.load(ordering: .acquiring) {
            _ = write(descriptor, clearTaskbarBytes.baseAddress, clearTaskbarBytes.count)
        }
        cursorRestored.store(true, ordering: .relaxed)
    }

    static func wake() {
        let descriptor = wakeDescriptor.load(ordering: .acquiring)
        guard descriptor >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(descriptor, &byte, 1)
    }

    /// Whether a disposition is a handler function (not `SIG_DFL`, not `SIG_IGN`).
    static func isFunction(_ action: sigaction) -> Bool {
        let raw = unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
        return raw != 0 && raw != 1
    }

    static func isIgnored(_ action: sigaction) -> Bool {
        unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == 1
    }

    /// Calls the handler that was installed before ours.
    static func chain(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
        let action = previous[Int(signal)]
        guard isFunction(action) else { return }
        if action.sa_flags & Int32(SA_SIGINFO) != 0 {
            action.__sigaction_handler.sa_sigaction?(signal, info, context)
        } else {
            action.__sigaction_handler.sa_handler?(signal)
        }
    }
}

/// The handler for SIGINT, SIGTERM and SIGWINCH while a session owns the terminal.
private let terminalSignalHandler:
    @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?)
        -> Void = { signal, info, context in
            let savedErrno = errno
            defer { errno = savedErrno }
            if signal == SIGWINCH {
                SignalRelay.wake()
                SignalRelay.chain(signal, info, context)
                return
            }
            SignalRelay.restoreTerminal()
            if SignalRelay.isFunction(SignalRelay.previous[Int(signal)]) {
                // The program handles this signal itself (it may forward it to a child and go on).
                SignalRelay.chain(signal, info, context)
                SignalRelay.wake()
                return
            }
            // Die of the signal, as the program would have without us, so the exit status is right.
            var action = sigaction()
            action.__sigaction_handler.sa_handler = SIG_DFL
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
            raise(signal)
        }

/// Installs and removes the terminal's signal handlers for one session.
final class SignalGuard: Sendable {
    private let signals: [Int32]

    /// Takes the handlers for `descriptor`, or returns `nil` when another session has them.
    ///
    /// SIGINT and SIGTERM are handled unless ignored when the session starts (a program that
    /// handles them with Dispatch sources ignores them first, and then calls `finish()` itself);
    /// SIGWINCH only when `watchSize`.
    init?(descriptor: Int32, watchSize: Bool, wakeDescriptor: Int32) {
        guard
            SignalRelay.owned.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
                .exchanged
        else { return nil }
        _ = SignalRelay.restoreBytes
        SignalRelay.restoreDescriptor.store(descriptor, ordering: .releasing)
        SignalRelay.wakeDescriptor.store(wakeDescriptor, ordering: .releasing)
        SignalRelay.cursorRestored.store(false, ordering: .relaxed)
        var installed: [Int32] = []
        for signal in [SIGINT, SIGTERM] + (watchSize ? [SIGWINCH] : []) {
            var current = sigaction()
            sigaction(signal, nil, &current)
            if signal != SIGWINCH && SignalRelay.isIgnored(current) { continue }
            SignalRelay.previous[Int(signal)] = current
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = terminalSignalHandler
            action.sa_flags = Int32(SA_SIGINFO | SA_RESTART)
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
            installed.append(signal)
        }
        signals = installed
    }

    /// Puts the previous dispositions back and lets go of the terminal.
    func uninstall() {
        let ours = unsafeBitCast(terminalSignalHandler, to: Int.self)
        for signal in signals {
            // A handler the program installed after ours stays: it is the program's now.
            var current = sigaction()
            sigaction(signal, nil, &current)
            guard unsafeBitCast(current.__sigaction_handler.sa_sigaction, to: Int.self) == ours else { continue }
            var previous = SignalRelay.previous[Int(signal)]
            sigaction(signal, &previous, nil)
        }
        SignalRelay.restoreDescriptor.store(-1, ordering: .releasing)
        SignalRelay.wakeDescriptor.store(-1, ordering: .releasing)
        SignalRelay.owned.store(false, ordering: .releasing)
    }
}
