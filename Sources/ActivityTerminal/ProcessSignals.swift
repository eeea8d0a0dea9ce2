import ActivityPOSIX
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's one set of signal handlers: whoever needs a signal handled claims it here, and
/// one handler, installed once per signal while anyone claims it, does what they registered.
///
/// - **A signal that ends the program** (SIGINT, SIGTERM, SIGHUP, …): every ``TerminalClaim``
///   restores its terminal; then, when the program asked for the signal as a byte on its pipe
///   (``deliver(_:to:)``), the byte is written and the program carries on; when it asked for the
///   signal to be forwarded (``forward(_:toGroup:)``), it goes to that process group; otherwise
///   a handler the program had installed before is called (and the drawers woken), or, for the
///   default action, the default is put back and the signal raised again, so the process ends
///   with the status the signal gives.
/// - **SIGTSTP** (Ctrl-Z): the terminal is given back, the process stops the default way, and
///   once continued the drawers are told to take the terminal again.
/// - **SIGWINCH**: the drawers' timers are woken to redraw at the new size.
///
/// A handler the program installed before is chained to; one it installs after replaces ours
/// (and should call ``restoreTerminals()``), and stays when the last claim is released.
package enum ProcessSignals {
    /// The signals whose default action ends the process and that `activity` takes itself
    /// (``SignalNumbers/terminating``).
    package static let terminating = SignalNumbers.terminating

    /// The signals whose handler restores the terminals: blocked while a drawer draws
    /// (``TerminalClaim/draw(waiting:_:)``).
    nonisolated(unsafe) static let restoringTerminals: UnsafePointer<sigset_t> = {
        let set = UnsafeMutablePointer<sigset_t>.allocate(capacity: 1)
        sigemptyset(set)
        for signal in terminating + [SIGTSTP] { sigaddset(set, signal) }
        return UnsafePointer(set)
    }()

    private static let slots = 65
    /// How many claims each signal has; our handler is installed while it is above 0.
    private static let claims = Mutex([Int](repeating: 0, count: slots))
    /// The dispositions found when our handler was installed, by signal number.
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let pointer = UnsafeMutablePointer<sigaction>.allocate(capacity: slots)
        pointer.initialize(repeating: sigaction(), count: slots)
        return pointer
    }()
    /// The write end of the program's signal pipe, and the signals it takes (bit N: signal N).
    private static let pipe = Atomic<Int32>(-1)
    private static let piped = Atomic<UInt64>(0)
    /// The process group that takes forwarded signals, and which signals (bit N: signal N).
    private static let group = Atomic<Int32>(0)
    private static let forwarded = Atomic<UInt64>(0)
    private static let exitHook = Mutex(false)

    // MARK: - Claims

    /// Installs the handler for `signals` (once: a second claim only counts). A signal ignored
    /// when it is first claimed is left ignored unless `evenIfIgnored` (the program then
    /// handles it itself, as it would with a Dispatch source).
    ///
    /// Returns the signals claimed, to pass to ``release(_:)``.
    package static func claim(_ signals: [Int32], evenIfIgnored: Bool = false) -> [Int32] {
        // Statics are made on first use, which a signal handler must not be: all of them now.
        _ = previous
        _ = (TerminalClaim.display, TerminalClaim.overlay)
        _ = pipe.load(ordering: .relaxed)
        _ = piped.load(ordering: .relaxed)
        _ = group.load(ordering: .relaxed)
        _ = forwarded.load(ordering: .relaxed)
        return claims.withLock { counts in
            var claimed: [Int32] = []
            for signal in signals where signal > 0 && Int(signal) < slots {
                if counts[Int(signal)] == 0 {
                    var current = sigaction()
                    sigaction(signal, nil, &current)
                    if !evenIfIgnored && signal != SIGWINCH && isIgnored(current) { continue }
                    previous[Int(signal)] = current
                    var action = ours
                    sigaction(signal, &action, nil)
                }
                counts[Int(signal)] += 1
                claimed.append(signal)
            }
            return claimed
        }
    }

    /// Gives up claims made with ``claim(_:evenIfIgnored:)``. When a signal's last claim goes,
    /// the disposition found is put back, unless the program has installed another handler since.
    package static func release(_ signals: [Int32]) {
        claims.withLock { counts in
            for signal in signals where counts[Int(signal)] > 0 {
                counts[Int(signal)] -= 1
                guard counts[Int(signal)] == 0 else { continue }
                var current = sigaction()
                sigaction(signal, nil, &current)
                if isOurs(current) { sigaction(signal, previous + Int(signal), nil) }
            }
        }
    }

    /// Turns `signals` into bytes (the signal's number) on the pipe whose write end is
    /// `writeEnd`, so that a poll loop handles them as input. The signals are claimed (even if
    /// ignored) and unblocked in this thread. Returns the claim, for ``stopDelivering(_:)``.
    package static func deliver(_ signals: [Int32], to writeEnd: Int32) -> [Int32] {
        pipe.store(writeEnd, ordering: .releasing)
        piped.store(mask(signals), ordering: .releasing)
        let claimed = claim(signals, evenIfIgnored: true)
        // A parent may have started us with these signals blocked; they must reach the handler.
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        return claimed
    }

    /// Ends ``deliver(_:to:)``.
    package static func stopDelivering(_ claimed: [Int32]) {
        piped.store(0, ordering: .releasing)
        pipe.store(-1, ordering: .releasing)
        release(claimed)
    }

    /// Sends `signals` on to the process group `group` (a session leader passing on what its
    /// parent forwards). For the life of the process.
    package static func forward(_ signals: [Int32], toGroup group: pid_t) {
        Self.group.store(group, ordering: .releasing)
        forwarded.store(mask(signals), ordering: .releasing)
        _ = claim(signals, evenIfIgnored: true)
    }

    /// Restores every claimed terminal at the process's exit too (the overlay's).
    package static func restoreAtExit() {
        exitHook.withLock { hooked in
            guard !hooked else { return }
            hooked = true
            atexit {
                TerminalClaim.forEach { claim in if claim.restoresAtExit { claim.restore(markingRestored: false) } }
            }
        }
    }

    /// Restores every claimed terminal now. Async-signal-safe: for a handler the program
    /// installed after ours.
    package static func restoreTerminals() {
        TerminalClaim.forEach { $0.restore(markingRestored: true) }
    }

    // MARK: - The handler

    private static var ours: sigaction {
        var action = sigaction()
        action.setInfoHandler(processSignalHandler)
        action.sa_flags = Int32(SA_SIGINFO | SA_RESTART)
        sigemptyset(&action.sa_mask)
        return action
    }

    private static func mask(_ signals: [Int32]) -> UInt64 {
        signals.reduce(0) { $0 | (($1 > 0 && $1 < 64) ? UInt64(1) << UInt64($1) : 0) }
    }

    private static func has(_ set: borrowing Atomic<UInt64>, _ signal: Int32) -> Bool {
        signal > 0 && signal < 64 && set.load(ordering: .acquiring) & (UInt64(1) << UInt64(signal)) != 0
    }

    private static func raw(_ action: sigaction) -> Int {
        action.handlerAddress
    }

    private static func isIgnored(_ action: sigaction) -> Bool { raw(action) == 1 }

    /// Whether `signal` is ignored now (a job started in the background ignores SIGINT).
    package static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        sigaction(signal, nil, &current)
        return isIgnored(current)
    }

    /// Whether a disposition is a handler function (not `SIG_DFL`, not `SIG_IGN`).
    private static func isFunction(_ action: sigaction) -> Bool { raw(action) != 0 && raw(action) != 1 }

    private static func isOurs(_ action: sigaction) -> Bool {
        action.sa_flags & Int32(SA_SIGINFO) != 0 && raw(action) == unsafeBitCast(processSignalHandler, to: Int.self)
    }

    /// Calls the handler that was installed before ours.
    private static func chain(
        _ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
    ) {
        let action = previous[Int(signal)]
        guard isFunction(action) else { return }
        action.callHandler(signal, info, context)
    }

    private static func wakeDrawers() {
        TerminalClaim.forEach { $0.wakeUp() }
    }

    fileprivate static func handle(
        _ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
    ) {
        switch signal {
        case SIGWINCH:
            wakeDrawers()
            chain(signal, info, context)
        case SIGTSTP:
            let previous = previous[Int(signal)]
            if isIgnored(previous) { return }
            if isFunction(previous) {
                restoreTerminals()
                chain(signal, info, context)
                return
            }
            suspend()
        default:
            if has(forwarded, signal) {
                let group = group.load(ordering: .acquiring)
                if group > 0 { _ = kill(-group, signal) }
                return
            }
            let previous = previous[Int(signal)]
            let toPipe = has(piped, signal)
            if !toPipe && isIgnored(previous) { return }
            restoreTerminals()
            if toPipe {
                var byte = UInt8(truncatingIfNeeded: signal)
                _ = write(pipe.load(ordering: .acquiring), &byte, 1)
                wakeDrawers()
            } else if isFunction(previous) {
                // The program handles this signal itself (it may forward it to a child and go on).
                chain(signal, info, context)
                wakeDrawers()
            } else {
                // Die of the signal, as the program would have without us: the default action
                // is taken once the handler returns (the signal is blocked until then).
                var action = sigaction()
                sigemptyset(&action.sa_mask)
                sigaction(signal, &action, nil)
                raise(signal)
            }
        }
    }

    /// Ctrl-Z: gives the terminal back as it was, stops the process the default way, and, once
    /// it is continued, puts this handler back and tells the drawers to take the terminal again.
    private static func suspend() {
        TerminalClaim.forEach { $0.beginSuspend() }
        TerminalClaim.forEach { $0.restore(markingRestored: false) }
        stopAsJob()
        TerminalClaim.forEach { $0.endSuspend() }
        wakeDrawers()
    }

    /// Stops the process as Ctrl-Z stops a job: SIGTSTP, with its default action, raised in this
    /// thread, so the process is stopped before this returns, and returns once it is continued.
    /// In an orphaned process group (no job-control shell above it: a terminal emulator's or
    /// `pty.fork()`'s own program, `tmux new-session CMD`) the kernel discards the signal, as
    /// nobody there would ever continue the process, and this returns at once; SIGSTOP would
    /// stop it for ever. Async-signal-safe.
    package static func stopAsJob() {
        var stop = sigaction()
        sigemptyset(&stop.sa_mask)
        var saved = sigaction()
        sigaction(SIGTSTP, &stop, &saved)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGTSTP)
        var mask = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &unblock, &mask)
        raise(SIGTSTP)  // stops here until SIGCONT
        pthread_sigmask(SIG_SETMASK, &mask, nil)
        sigaction(SIGTSTP, &saved, nil)
    }
}

private let processSignalHandler: sigaction.InfoHandler = {
    signal, info, context in
    let savedErrno = errno
    defer { errno = savedErrno }
    ProcessSignals.handle(signal, info, context)
}
