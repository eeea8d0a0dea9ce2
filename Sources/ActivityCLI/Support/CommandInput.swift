import ActivityTerminal
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The input file of `render`, `replay`, `report` and `export`: FILE, or standard input for `-`.
enum CommandInput {
    /// How the input is named in messages.
    /// `file` as messages name it: its controls and bidirectional overrides escaped (`\x1b`,
    /// `\u{202e}`) by the one sanitizer, so a hostile name shows what it is and moves nothing.
    static func name(_ file: String) -> String { file == "-" ? "standard input" : TerminalSanitizer.escaped(file) }

    /// `file` opened for reading (`-`: standard input, descriptor 0); `nil` with `errno` set.
    static func descriptor(for file: String) -> Int32? {
        let fd = file == "-" ? 0 : open(file, O_RDONLY | O_CLOEXEC)
        return fd >= 0 ? fd : nil
    }

    /// Closes what ``descriptor(for:)`` opened; standard input stays open.
    static func release(_ fd: Int32) {
        if fd != 0 { close(fd) }
    }

    /// Whether the input on `fd` is a regular file (a recording), not a pipe, socket or terminal.
    static func isRegularFile(_ fd: Int32) -> Bool {
        var input = stat()
        return fstat(fd, &input) == 0 && input.st_mode & S_IFMT == S_IFREG
    }

    /// Whether the input on `fd` is the file at `path`: a log file that is its own input would be
    /// read as it is written, and grow without end.
    static func isFile(_ fd: Int32, at path: String) -> Bool {
        var input = stat()
        var other = stat()
        guard fstat(fd, &input) == 0, stat(path, &other) == 0 else { return false }
        return input.st_dev == other.st_dev && input.st_ino == other.st_ino
    }
}
