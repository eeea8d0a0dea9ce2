import ActivityPOSIX
import ActivityTimeline
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension RecordingPass {
    /// Two passes over the recording on `fd`, for an output that must know the whole recording's
    /// shape before it writes anything: `first` sees every activity as it ends; `second`, made from
    /// what the first pass found, sees them again. Lines that are not events are named once, in the
    /// first pass; the second reads no further than the first did, so a recording still being
    /// written is read as it was when the first pass reached its end. Input that is not a regular
    /// file (standard input, a pipe) is copied to an unlinked temporary file in `TMPDIR` first.
    static func twice(
        _ fd: Int32, name: String, command: String, first: (TimelineActivity, _ parent: Int?) -> Void,
        second: (Summary) -> (TimelineActivity, _ parent: Int?) -> Void
    ) -> Result<Summary, RecordingError> {
        var input = fd
        var copy: Int32?
        defer { if let copy { close(copy) } }
        if !CommandInput.isRegularFile(fd) {
            switch copyToTemporaryFile(fd, name: name) {
            case .success(let copied):
                copy = copied
                input = copied
            case .failure(let error): return .failure(error)
            }
        }
        let start = lseek(input, 0, SEEK_CUR)
        let firstPass = run(input, name: name, command: command, reportsProblems: true, first)
        guard case .success(let summary) = firstPass else { return firstPass }
        let end = lseek(input, 0, SEEK_CUR)
        guard start >= 0, end >= start, lseek(input, start, SEEK_SET) == start else {
            return .failure(
                RecordingError(message: "\(name): \(SystemError.reason(errno))", exitStatus: ExitCode.ioError))
        }
        let secondPass = run(
            input, name: name, command: command, reportsProblems: false, byteLimit: Int(end - start), second(summary))
        return secondPass.map { _ in summary }
    }

    /// Standard input (or a pipe) read to its end into an unlinked temporary file.
    private static func copyToTemporaryFile(_ fd: Int32, name: String) -> Result<Int32, RecordingError> {
        let copy: Int32
        switch TemporaryFile.make(prefix: "activity-recording") {
        case .success(let made): copy = made
        case .failure(let error):
            return .failure(
                RecordingError(
                    message: "temporary file in TMPDIR: \(SystemError.reason(error.code))", exitStatus: ExitCode.ioError
                ))
        }
        var source = FileDescriptorSource(fileDescriptor: fd)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int
            do { count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) } } catch {
                close(copy)
                return .failure(RecordingError(message: "\(name): \(error)", exitStatus: ExitCode.ioError))
            }
            if count == 0 { break }
            let error = buffer.withUnsafeBytes {
                SystemCall.writeAll(copy, UnsafeRawBufferPointer(rebasing: $0[..<count])) { _, _ in true }
            }
            if error != 0 {
                close(copy)
                return .failure(
                    RecordingError(
                        message: "temporary file in TMPDIR: \(SystemError.reason(error))", exitStatus: ExitCode.ioError)
                )
            }
        }
        guard lseek(copy, 0, SEEK_SET) == 0 else {
            defer { close(copy) }
            return .failure(RecordingError(message: "temporary file in TMPDIR", exitStatus: ExitCode.ioError))
        }
        return .success(copy)
    }
}
