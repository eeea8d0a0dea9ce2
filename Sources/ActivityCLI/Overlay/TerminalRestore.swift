import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What must be undone if the process is interrupted while the overlay owns the terminal, kept
/// where a signal handler can reach it without allocating or locking.
///
/// One overlay at a time registers here. The signal handler restores the terminal (one `write(2)`
/// and one `tcsetattr(3)`, both async-signal-safe), then hands the signal to whatever handler was
/// installed before, or, when that was the default action, lets the signal take its course. A
/// signal the program ignored stays ignored, and the terminal stays as it is. Ctrl-Z (SIGTSTP)
/// gives the terminal back while the process is stopped; the presenter takes it again when the
/// process continues.
enum TerminalRestore {
    /// The sequence that leaves the overlay: end a synchronized update, reset colours, leave the
    /// alternate screen, show the cursor.
    static let leaveSequence: [UInt8] = Array("\u{1B}[?2026l\u{1B}[0m\u{1B}[?1049l\u{1B}[?25h".utf8)

    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP]

    /// 1 while a presenter is registered.
    fileprivate static let registered = Atomic<Int32>(0)
    /// 1 while the alternate screen is shown.
    fileprivate static let alternateScreen = Atomic<Int32>(0)
    /// 1 while the input terminal is in raw mode and `savedTermios` holds its previous settings.
    fileprivate static let rawInput = Atomic<Int32>(0)
    /// 1 once a signal handler has restored the terminal: the presenter draws no more.
    fileprivate static let interrupted = Atomic<Int32>(0)
    /// 1 after the process was stopped (Ctrl-Z) and continued: the presenter takes the terminal again.
    fileprivate static let resumed = Atomic<Int32>(0)
    /// 1 from the moment Ctrl-Z starts giving the terminal back until the process is continued and
    /// `resumed` is set: the presenter draws nothing meanwhile, so a frame drawn by another thread
    /// can land neither on the shell's screen nor on the main screen after `fg`.
    fileprivate static let suspending = Atomic<Int32>(0)
    fileprivate static let outputFD = Atomic<Int32>(-1)
    fileprivate static let inputFD = Atomic<Int32>(-1)

    nonisolated(unsafe) fileprivate static let savedTermios: UnsafeMutablePointer<termios> = {
        let pointer = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        pointer.initialize(to: termios())
        return pointer
    }()
    nonisolated(unsafe) fileprivate static let previousActions: UnsafeMutablePointer<sigaction> = {
        let pointer = UnsafeMutablePointer<sigaction>.allocate(capacity: signals.count)
        pointer.initialize(repeating: sigaction(), count: signals.count)
        return pointer
    }()
    nonisolated(unsafe) fileprivate static let leaveBytes: UnsafeMutableBufferPointer<UInt8> = {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: leaveSequence.count)
        _ = buffer.initialize(from: leaveSequence)
        return buffer
    }()
    private static let installed = Mutex(false)
    private static let exitHook = Mutex(false)

    /// Registers the terminal of a presenter. Returns `false` when another one is registered.
    static func register(outputFD: Int32, inputFD: Int32?) -> Bool {
        _ = savedTermios
        _ = previousActions
        _ = leaveBytes
        guard registered.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else {
            return false
        }
        interrupted.store(0, ordering: .releasing)
        Self.outputFD.store(outputFD, ordering: .releasing)
        Self.inputFD.store(inputFD ?? -1, ordering: .releasing)
        installHandlers()
        exitHook.withLock { hooked in
            guard !hooked else { return }
            hooked = true
            atexit { TerminalRestore.restoreNow() }
        }
        return true
    }

    /// Unregisters and puts back the signal handlers found at registration, unless another handler
    /// has been installed since (that one may chain to ours, which is then harmless).
    static func unregister() {
        registered.store(0, ordering: .releasing)
        alternateScreen.store(0, ordering: .releasing)
        rawInput.store(0, ordering: .releasing)
        installed.withLock { installed in
            guard installed else { return }
            installed = false
            for (index, signal) in signals.enumerated() {
                var current = sigaction()
                sigaction(signal, nil, &current)
                if isOurs(current) { sigaction(signal, previousActions + index, nil) }
            }
        }
    }

    /// Whether the process has been stopped and continued since the last call: the terminal was
    /// given back to the shell meanwhile, and must be taken again.
    static func consumeResumed() -> Bool { resumed.exchange(0, ordering: .acquiringAndReleasing) == 1 }

    /// Whether a Ctrl-Z is being handled: draw nothing until it is over.
    static var isSuspending: Bool { suspending.load(ordering: .acquiring) == 1 }

    /// Whether a signal handler has restored the terminal since registration.
    static var wasInterrupted: Bool { interrupted.load(ordering: .acquiring) == 1 }

    static func setAlternateScreen(_ on: Bool) { alternateScreen.store(on ? 1 : 0, ordering: .releasing) }

    /// Records the settings to put back, before the input terminal goes raw.
    static func saveTermios(_ settings: termios) {
        savedTermios.pointee = settings
        rawInput.store(1, ordering: .releasing)
    }

    static func clearTermios() { rawInput.store(0, ordering: .releasing) }

    /// Restores the terminal from the recorded state. Async-signal-safe; harmless when nothing is
    /// to be restored.
    static func restoreNow() {
        guard registered.load(ordering: .acquiring) == 1 else { return }
        if rawInput.exchange(0, ordering: .acquiringAndReleasing) == 1 {
            _ = tcsetattr(inputFD.load(ordering: .acquiring), TCSANOW, savedTermios)
        }
        if alternateScreen.exchange(0, ordering: .acquiringAndReleasing) == 1 {
            _ = write(outputFD.load(ordering: .acquiring), leaveBytes.baseAddress, leaveBytes.count)
        }
    }

    private static func installHandlers() {
        installed.withLock { installed in
            guard !installed else { return }
            installed = true
            for (index, signal) in signals.enumerated() {
                var action = sigaction()
                action.__sigaction_handler.sa_sigaction = terminalRestoreSignalHandler
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_SIGINFO | SA_RESTART
                sigaction(signal, &action, previousActions + index)
            }
        }
    }

    private static func isOurs(_ action: sigaction) -> Bool {
        guard action.sa_flags & SA_SIGINFO != 0, let handler = action.__sigaction_handler.sa_sigaction else {
            return false
        }
        return unsafeBitCast(handler, to: UnsafeRawPointer.self)
            == unsafeBitCast(terminalRestoreSignalHandler as SignalHandler, to: UnsafeRawPointer.self)
    }

    typealias SignalHandler = @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void

    /// Restores the terminal, then passes the signal on as if we had never been there.
    fileprivate static func handle(
        _ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
    ) {
        let savedErrno = errno
        defer { errno = savedErrno }
        guard let index = signals.firstIndex(of: signal) else { return }
        let previous = previousActions[index]
        if previous.sa_flags & SA_SIGINFO != 0, let handler = previous.__sigaction_handler.sa_sigaction {
            interrupted.store(1, ordering: .releasing)
            restoreNow()
            handler(signal, info, context)
            return
        }
        let handler = previous.__sigaction_handler.sa_handler
        let raw = handler.map { unsafeBitCast($0, to: Int.self) } ?? 0
        if raw == unsafeBitCast(SIG_IGN, to: Int.self) { return }  // the program ignores it: so do we
        if signal == SIGTSTP, raw == 0 {
            suspend()
            return
        }
        interrupted.store(1, ordering: .releasing)
        restoreNow()
        if raw == 0 {  // SIG_DFL: take the default action once we return (the signal is blocked until then)
            var action = previous
            sigaction(signal, &action, nil)
            raise(signal)
            return
        }
        handler?(signal)
    }

    /// Ctrl-Z: gives the terminal back as it was, stops the process the default way, and, once it
    /// is continued, puts this handler back and tells the presenter to take the terminal again.
    private static func suspend() {
        suspending.store(1, ordering: .releasing)
        restoreNow()
        var stop = sigaction()
        stop.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&stop.sa_mask)
        var ours = sigaction()
        sigaction(SIGTSTP, &stop, &ours)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGTSTP)
        var mask = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &unblock, &mask)
        raise(SIGTSTP)  // stops here until SIGCONT
        pthread_sigmask(SIG_SETMASK, &mask, nil)
        sigaction(SIGTSTP, &ours, nil)
        resumed.store(1, ordering: .releasing)
        suspending.store(0, ordering: .releasing)
    }
}

private let terminalRestoreSignalHandler: TerminalRestore.SignalHandler = { signal, info, context in
    TerminalRestore.handle(signal, info, context)
}
