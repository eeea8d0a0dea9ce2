#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal settings (`termios`) that the displays change besides raw mode (``RawMode``):
/// key-by-key reading for the overlay's keys, and a pseudo-terminal set up like the real one.
package enum TerminalSettings {
    /// Switches `descriptor` to reading key by key without echo, keys such as Ctrl-C still
    /// raising their signals. Returns the settings found, to put back with ``restore(_:to:)``;
    /// `nil` when they cannot be read or changed. `note` learns them before anything changes
    /// (for a signal handler that must put them back).
    package static func readKeyByKey(_ descriptor: Int32, noting note: (termios) -> Void = { _ in }) -> termios? {
        var saved = termios()
        guard tcgetattr(descriptor, &saved) == 0 else { return nil }
        note(saved)
        var settings = saved
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ECHONL | IEXTEN)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard set(descriptor, settings, when: TCSANOW) else { return nil }
        return saved
    }

    /// Puts back settings that ``readKeyByKey(_:)`` returned.
    package static func restore(_ descriptor: Int32, to settings: termios) {
        _ = set(descriptor, settings, when: TCSANOW)
    }

    /// Changes `descriptor`'s settings, with SIGTTOU blocked: a job that became a background one
    /// between its check of the foreground and this call must not be stopped by it.
    static func set(_ descriptor: Int32, _ settings: termios, when action: Int32) -> Bool {
        var settings = settings
        var block = sigset_t()
        var old = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGTTOU)
        pthread_sigmask(SIG_BLOCK, &block, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        while tcsetattr(descriptor, action, &settings) != 0 {
            guard errno == EINTR else { return false }
        }
        return true
    }

    /// Gives `target` the settings of `source` (erase and interrupt keys, output processing),
    /// except that control keys are not echoed as `^C`.
    package static func copy(from source: Int32, to target: Int32) {
        var settings = termios()
        guard tcgetattr(source, &settings) == 0 else { return }
        settings.c_lflag &= ~tcflag_t(ECHOCTL)
        _ = tcsetattr(target, TCSANOW, &settings)
    }

    /// Whether `descriptor`'s terminal is in line mode (canonical input).
    package static func isInLineMode(_ descriptor: Int32) -> Bool {
        var settings = termios()
        return tcgetattr(descriptor, &settings) == 0 && settings.c_lflag & tcflag_t(ICANON) != 0
    }
}
