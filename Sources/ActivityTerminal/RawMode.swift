#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A terminal's input switched to raw mode (no echo, no line editing, no signals from keys), so
/// that every key reaches another program as typed: `activity run` copies keys to the command's
/// pseudo-terminal, whose own line discipline then edits lines and turns Ctrl-C into SIGINT.
///
/// ``restore()`` puts back the settings found, as does the process's exit (an `atexit` hook), so
/// the terminal is never left raw behind a person's shell.
package final class RawMode: @unchecked Sendable {
    /// The descriptor and its settings before, for the exit hook: one terminal at a time.
    nonisolated(unsafe) private static var active: (descriptor: Int32, saved: termios)?
    nonisolated(unsafe) private static var hooked = false

    package let descriptor: Int32
    package let saved: termios
    /// Whether the kernel still processes what is written (a `\n` becomes `\r\n`).
    package let processesOutput: Bool

    /// Switches `descriptor` to raw mode; `nil` when it is not a terminal or cannot be changed.
    ///
    /// With `processesOutput` false, output processing (`OPOST`) is off too, for a writer that
    /// ends each of its lines with `\r\n` itself: the kernel then passes each write to the
    /// terminal whole, where with processing on it handles every line feed on its own (on a
    /// pseudo-terminal, a push to the reader for each line). `activity run`'s display writes
    /// every line of a command's output so.
    package init?(_ descriptor: Int32, processesOutput: Bool = true) {
        var settings = termios()
        guard isatty(descriptor) == 1, tcgetattr(descriptor, &settings) == 0 else { return nil }
        self.descriptor = descriptor
        self.processesOutput = processesOutput
        saved = settings
        guard Self.apply(descriptor, raw: true, saved: settings, processesOutput: processesOutput) else { return nil }
        Self.active = (descriptor, settings)
        if !Self.hooked {
            Self.hooked = true
            atexit {
                if let (descriptor, saved) = RawMode.active {
                    _ = RawMode.apply(descriptor, raw: false, saved: saved, processesOutput: true)
                }
            }
        }
    }

    /// Puts back the settings found.
    package func restore() {
        _ = Self.apply(descriptor, raw: false, saved: saved, processesOutput: true)
        Self.active = nil
    }

    /// Raw again, after a stop (Ctrl-Z) gave the terminal back to the shell.
    package func resume() {
        _ = Self.apply(descriptor, raw: true, saved: saved, processesOutput: processesOutput)
        Self.active = (descriptor, saved)
    }

    /// Whether `descriptor`'s process group is the terminal's foreground one: a job in the
    /// background that changed the terminal's settings would be stopped (SIGTTOU).
    package static func isForeground(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1 && tcgetpgrp(descriptor) == getpgrp()
    }

    private static func apply(_ descriptor: Int32, raw: Bool, saved: termios, processesOutput: Bool) -> Bool {
        var settings = saved
        if raw {
            cfmakeraw(&settings)
            settings.c_oflag = processesOutput ? saved.c_oflag : saved.c_oflag & ~tcflag_t(OPOST)
        }
        return TerminalSettings.set(descriptor, settings, when: TCSADRAIN)
    }
}
