import ActivityTimeline
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a recording for `report` and `export`.
///
/// A line that is not an event is named (`build.jsonl:12: invalid-json: …`) and skipped; every
/// other line still counts, so one bad line loses nothing else. A file with no event at all is
/// not a recording: that is an error, exit status 65.
enum RecordingInput {
    struct Loaded {
        var timeline: Timeline
        /// Lines that were not events.
        var skippedLines: Int
    }

    /// The recording in `file` (`-` for standard input), or the exit status after a message.
    static func read(_ file: String, command: String) -> Result<Loaded, RecordingError> {
        let name = CommandInput.name(file)
        guard let fd = CommandInput.descriptor(for: file) else {
            return .failure(RecordingError(message: "\(file): \(POSIX.describe(errno))", exitStatus: ExitCode.noInput))
        }
        defer { CommandInput.release(fd) }
        var skipped = 0
        let result: (timeline: Timeline, events: Int)
        do {
            result = try Timeline.read(FileDescriptorSource(fileDescriptor: fd)) { problem in
                skipped += 1
                Console.error(
                    "\(name):\(problem.line): \(problem.code.rawValue): \(problem.message); skipped", command: command)
            }
        } catch {
            return .failure(RecordingError(message: "\(name): \(error)", exitStatus: ExitCode.ioError))
        }
        guard result.events > 0 else {
            return .failure(RecordingError(message: notARecording(name), exitStatus: ExitCode.dataError))
        }
        return .success(Loaded(timeline: result.timeline, skippedLines: skipped))
    }

    /// What a file without a single event is told.
    static func notARecording(_ name: String) -> String {
        "\(name): not a recording: no activity events in it (record one with --log-file PATH --log-format jsonl)"
    }

    /// Writes `text` to `path` (`-` for standard output), or returns the exit status after a message.
    static func write(_ text: String, to path: String, command: String) -> Int32 {
        let fd = path == "-" ? 1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            Console.error("\(path): \(POSIX.describe(errno))", command: command)
            return ExitCode.cannotCreate
        }
        defer { if fd != 1 { close(fd) } }
        do throws(FileOutput.Failure) {
            try FileOutput(fileDescriptor: fd).write(text)
        } catch {
            if error == .closed { return ExitCode.success }
            if case .failed(let code) = error { Console.error("\(path): \(POSIX.describe(code))", command: command) }
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
