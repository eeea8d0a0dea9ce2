import ActivityPOSIX
import ActivityRendering
import ActivityTerminal
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An output that `activity` could not write for another reason than its reader going away: a
/// full disk (`ENOSPC`), an I/O error. It is said once, naming the output and the system's
/// reason, and the command exits with 74 (`Docs/cli.md`, *Exit statuses*).
///
/// A reader that went away (`EPIPE`, a reset socket, a reader that took nothing for 5 seconds)
/// is no failure of the writer's: a filter in a pipeline stops quietly, as `render` does by
/// SIGPIPE.
struct WriteFailure: Equatable {
    /// What could not be written: `standard output`, `the log file build.log`.
    var output: String
    /// The `errno` of the write that failed.
    var error: Int32

    /// `cannot write the log file /dev/full: No space left on device`.
    var message: String { "cannot write \(output): \(SystemError.reason(error))" }

    /// Whether `error` means the reader went away rather than that the write failed.
    static func isReaderGone(_ error: Int32) -> Bool {
        error == EPIPE || error == ECONNRESET || error == EAGAIN
    }

    /// The outputs of `session` whose writes failed, standard output first. Read them once the
    /// session is finished: its last lines (the summary) are written then.
    static func of(_ session: RenderSession) -> [WriteFailure] {
        var failures: [WriteFailure] = []
        for (stream, name) in [(StandardStream.stdout, "standard output"), (.stderr, "standard error")] {
            if let error = session.writeFailure(stream), !isReaderGone(error) {
                failures.append(WriteFailure(output: name, error: error))
            }
        }
        if let log = session.logFileFailure() {
            failures.append(
                WriteFailure(output: "the log file " + TerminalSanitizer.escaped(log.path), error: log.error))
        }
        return failures
    }

    /// Says each failure of `session`'s outputs once on standard error, as `activity COMMAND: …`;
    /// returns whether there was one.
    @discardableResult
    static func report(_ session: RenderSession, command: String) -> Bool {
        let failures = of(session)
        for failure in failures { Console.error(failure.message, command: command) }
        return !failures.isEmpty
    }
}
