import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `report` and `export` share about a recording: the message for a file that holds no
/// event (exit status 65: not a recording), and writing the output. Reading it is
/// ``RecordingPass``'s: a line that is not an event is named (`build.jsonl:12: invalid-json: …`)
/// and skipped, and every other line still counts.
enum RecordingInput {
    /// What a file without a single event is told.
    static func notARecording(_ name: String) -> String {
        "\(name): not a recording: no activity events in it (record one with --log-file PATH --log-format jsonl)"
    }

    /// Writes `text` to `path` (`-` for standard output), or returns the exit status after a message.
    static func write(_ text: String, to path: String, command: String) -> Int32 {
        let fd = path == "-" ? 1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            Console.error("\(path): \(SystemError.reason(errno))", command: command)
            return ExitCode.cannotCreate
        }
        defer { if fd != 1 { close(fd) } }
        do throws(SystemError) {
            try FileOutput(fileDescriptor: fd).write(text)
        } catch {
            if error.readerIsGone { return ExitCode.success }
            Console.error("\(path): \(error.reason)", command: command)
            return ExitCode.ioError
        }
        return ExitCode.success
    }
}

/// Why a recording could not be read: the message names the file, the status says the kind.
struct RecordingError: Error {
    var message: String
    var exitStatus: Int32
}
