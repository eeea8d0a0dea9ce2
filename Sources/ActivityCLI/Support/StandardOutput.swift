import ActivityPOSIX
import ActivityTerminal
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes whole buffers to a file descriptor, retrying short writes and `EINTR`.
///
/// `SIGPIPE` is ignored by `activity`, so a reader that went away shows up as a ``SystemError``
/// whose `readerIsGone`: the commands then stop quietly (`activity validate big.jsonl | head`).
struct FileOutput: Sendable {
    let fileDescriptor: Int32

    static let standardOutput = FileOutput(fileDescriptor: 1)
    static let standardError = FileOutput(fileDescriptor: 2)

    func write(_ bytes: some Collection<UInt8>) throws(SystemError) {
        if let result = bytes.withContiguousStorageIfAvailable({ writeAll($0) }) {
            if let failure = result { throw failure }
            return
        }
        if let failure = Array(bytes).withUnsafeBufferPointer({ writeAll($0) }) { throw failure }
    }

    func write(_ text: String) throws(SystemError) {
        try write(Array(text.utf8))
    }

    /// A non-blocking descriptor we must not change is waited for until it takes more.
    private func writeAll(_ buffer: UnsafeBufferPointer<UInt8>) -> SystemError? {
        let fd = fileDescriptor
        let error = SystemCall.writeAll(fd, UnsafeRawBufferPointer(buffer)) { _, _ in
            SystemCall.waitUntilWritable(fd, milliseconds: 1000)
            return true
        }
        return error == 0 ? nil : SystemError("write", code: error)
    }
}

/// Messages for the person at the terminal: `activity: …` on standard error.
enum Console {
    /// Prints `activity: message` (or `activity COMMAND: message`) on standard error.
    static func error(_ message: String, command: String? = nil) {
        let prefix = command.map { "activity \($0): " } ?? "activity: "
        try? FileOutput.standardError.write(shown(prefix + message) + "\n")
    }

    /// A message fit for the terminal: what it quotes from outside (a path, a command, a variable,
    /// an argument) may hold controls, which would act on the terminal; each line is passed
    /// through the one sanitizer, which writes them as visible escapes. Text escaped before
    /// comes through unchanged.
    static func shown(_ message: String) -> String {
        message.split(separator: "\n", omittingEmptySubsequences: false)
            .map { TerminalSanitizer.escaped(String($0)) }.joined(separator: "\n")
    }
}
