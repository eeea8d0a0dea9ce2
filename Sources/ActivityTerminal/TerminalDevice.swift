#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Facts about the terminal behind a file descriptor: whether it is one, its size, its identity.
///
/// ```swift
/// if TerminalDevice.isTerminal(2) {
///     let size = TerminalDevice.size(of: 2, environment: environment)   // (columns: 80, rows: 24)
/// }
/// ```
package enum TerminalDevice {
    /// Whether `descriptor` is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Whether `descriptor` is our controlling terminal and another process group has it: a job
    /// started with `&` while the shell (or another job) is in the foreground. A terminal that is
    /// not ours to ask about is not counted as one in the background.
    package static func isInBackground(_ descriptor: Int32) -> Bool {
        let foreground = tcgetpgrp(descriptor)
        return foreground > 0 && foreground != getpgrp()
    }

    /// The window size: the kernel's word for the terminal, else `COLUMNS` and `LINES` from
    /// `environment`, else `fallback`.
    package static func size(
        of descriptor: Int32, environment: [String: String], fallback: (columns: Int, rows: Int) = (80, 24)
    ) -> (columns: Int, rows: Int) {
        var window = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 {
            return (Int(window.ws_col), Int(window.ws_row))
        }
        let columns = environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? fallback.columns
        let rows = environment["LINES"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? fallback.rows
        return (columns, rows)
    }

    /// Whether two descriptors are the same terminal device.
    package static func sameDevice(_ a: Int32, _ b: Int32) -> Bool {
        var first = stat()
        var second = stat()
        guard fstat(a, &first) == 0, fstat(b, &second) == 0 else { return false }
        return first.st_rdev == second.st_rdev && first.st_ino == second.st_ino && first.st_dev == second.st_dev
    }
}
