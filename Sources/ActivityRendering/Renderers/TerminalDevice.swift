import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Facts about the terminal behind a file descriptor.
enum TerminalDevice {
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// The window size: from the terminal, else `COLUMNS` and `LINES`, else 80 × 24.
    static func size(of descriptor: Int32, environment: [String: String]) -> TerminalSize {
        var window = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 {
            return TerminalSize(columns: Int(window.ws_col), rows: Int(window.ws_row))
        }
        let columns = environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 80
        let rows = environment["LINES"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 24
        return TerminalSize(columns: columns, rows: rows)
    }

    /// Whether two descriptors are the same terminal device.
    static func sameDevice(_ a: Int32, _ b: Int32) -> Bool {
        var first = stat()
        var second = stat()
        guard fstat(a, &first) == 0, fstat(b, &second) == 0 else { return false }
        return first.st_rdev == second.st_rdev && first.st_ino == second.st_ino && first.st_dev == second.st_dev
    }
}

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

    nonisolated(unsafe) static let restoreBytes: UnsafeMutableBufferPointer<UInt8> = {
        let bytes = Array("\u{1B}[?2026l\u{1B}[0m\u{1B}[?25h".utf8)
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

/// A thread that calls `tick` every `interval` seconds, or at once when woken.
final class RedrawTimer: Sendable {
    private final class Context: Sendable {
        let interval: Double
        let wakeRead: Int32
        let stopped = Atomic<Bool>(false)
        let tick: @Sendable () -> Void

        init(interval: Double, wakeRead: Int32, tick: @escaping @Sendable () -> Void) {
            self.interval = interval
            self.wakeRead = wakeRead
            self.tick = tick
        }

        func run() {
            var block = sigset_t()
            sigemptyset(&block)
            for signal in [SIGINT, SIGTERM, SIGWINCH, SIGPIPE] { sigaddset(&block, signal) }
            pthread_sigmask(SIG_BLOCK, &block, nil)
            var drain = [UInt8](repeating: 0, count: 64)
            while !stopped.load(ordering: .acquiring) {
                var poller = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
                if poll(&poller, 1, Int32(interval * 1000)) > 0 {
                    _ = read(wakeRead, &drain, drain.count)
                }
                if stopped.load(ordering: .acquiring) { break }
                tick()
            }
        }
    }

    private let context: Context
    private let thread: pthread_t
    /// The write end of the wake-up pipe.
    let wakeDescriptor: Int32

    init?(interval: Double, tick: @escaping @Sendable () -> Void) {
        var pipe: [Int32] = [-1, -1]
        guard Glibc.pipe(&pipe) == 0 else { return nil }
        for end in pipe {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        let context = Context(interval: interval, wakeRead: pipe[0], tick: tick)
        let unmanaged = Unmanaged.passRetained(context)
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { raw in
                let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
                context.run()
                return nil
            }, unmanaged.toOpaque())
        guard status == 0 else {
            unmanaged.release()
            close(pipe[0])
            close(pipe[1])
            return nil
        }
        self.context = context
        self.thread = thread
        self.wakeDescriptor = pipe[1]
    }

    /// Wakes the thread for an immediate tick.
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeDescriptor, &byte, 1)
    }

    /// Stops the thread and waits for it; idempotent. Never call from inside `tick`.
    func stop() {
        guard !context.stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake()
        pthread_join(thread, nil)
        close(wakeDescriptor)
        close(context.wakeRead)
    }
}
