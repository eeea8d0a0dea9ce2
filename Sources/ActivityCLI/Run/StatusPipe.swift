import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pipe of a ``StatusDescriptor``: its write end under a number the command inherits, its
/// read end for `run`'s loop.
final class StatusPipe {
    /// The write end's number, the same in the command as here: never 0, 1 or 2 (even when
    /// activity was started without them), and none the command inherits otherwise (a
    /// jobserver's, `exec 3>file`'s).
    let number: Int32
    private var readEnd: Int32
    private var writeEnd: Int32

    /// A new pipe, close-on-exec (the spawn passes the write end on by its number), its ends
    /// non-blocking when `nonBlocking`.
    init(nonBlocking: Bool = false) throws(SystemError) {
        var ends: [Int32] = [-1, -1]
        guard SystemCall.pipe(&ends, nonBlocking: nonBlocking) else { throw SystemError("pipe") }
        let number = fcntl(ends[1], F_DUPFD_CLOEXEC, 3)
        let error = errno
        SystemCall.close(ends[1])
        guard number >= 0 else {
            SystemCall.close(ends[0])
            throw SystemError("fcntl", code: error)
        }
        self.number = number
        writeEnd = number
        readEnd = ends[0]
    }

    deinit { close() }

    /// Once the command has its copy: only the command's copies keep the pipe open.
    func closeWriteEnd() {
        if writeEnd >= 0 { SystemCall.close(writeEnd) }
        writeEnd = -1
    }

    /// Closes both ends.
    func close() {
        closeWriteEnd()
        if readEnd >= 0 { SystemCall.close(readEnd) }
        readEnd = -1
    }

    /// Hands the read end to the loop that reads it (and closes it); -1 once taken or closed.
    func takeReadEnd() -> Int32 {
        defer { readEnd = -1 }
        return readEnd
    }
}
