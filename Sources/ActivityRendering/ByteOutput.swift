import ActivityPOSIX
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a renderer's bytes go. One call to ``write(_:)`` is one `write(2)` (or one append to a
/// buffer), so a frame written in one call reaches the terminal in one piece.
package protocol ByteOutput: AnyObject {
    /// Writes all of `bytes`; returns `false` once the destination has gone away.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool

    /// Writes a line of the display's own (not the producer's output), as ``write(_:)`` does; an
    /// output whose reader stalls may leave it out and say how many it left out
    /// (`BackgroundWriter`). Returns `false` once the destination has gone away.
    @discardableResult
    func writeDisplayLine(_ bytes: [UInt8]) -> Bool

    /// Whether the reader has fallen behind (`BackgroundWriter/isBehind`): a display draws
    /// nothing it can leave out until it has caught up.
    var isBehind: Bool { get }
}

extension ByteOutput {
    /// Outputs written at once are never behind.
    package var isBehind: Bool { false }

    /// Outputs that never leave a line out write it as any other bytes.
    @discardableResult
    package func writeDisplayLine(_ bytes: [UInt8]) -> Bool { write(bytes) }
}

/// Bytes kept in memory, each ``write(_:)`` as one chunk: for tests and for custom renderers.
///
/// ```swift
/// let buffer = BufferOutput()
/// buffer.write(Array("hello\n".utf8))
/// buffer.text   // "hello\n"
/// ```
package final class BufferOutput: ByteOutput {
    /// Every write, in order.
    package private(set) var writes: [[UInt8]] = []

    package init() {}

    @discardableResult
    package func write(_ bytes: [UInt8]) -> Bool {
        if !bytes.isEmpty { writes.append(bytes) }
        return true
    }

    /// Everything written, as one byte array.
    package var bytes: [UInt8] { writes.flatMap { $0 } }

    /// Everything written, decoded as UTF-8.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Forgets what was written.
    package func removeAll() { writes.removeAll() }
}

/// Writes to a file descriptor the caller owns, without changing its flags or closing it.
///
/// Each ``write(_:)`` loops until every byte is written (`EINTR` retried, a non-blocking
/// descriptor waited for with `poll`). A reader that has gone away never raises SIGPIPE in this
/// process: sockets are written with `MSG_NOSIGNAL` (on Darwin, as pipes), and for pipes the signal is blocked in the
/// writing thread and a pending one consumed. After the first `EPIPE` (or another hard error)
/// the output is ``isBroken`` and later writes are dropped.
///
/// With a `batch` the bytes are gathered and written later, in larger writes (see
/// `OutputBatch`); with a `background` writer they are written on its thread (see
/// `BackgroundWriter`). A failure then shows in ``isBroken`` once the bytes are written.
package final class FileDescriptorOutput: ByteOutput, BatchedDestination {
    package let fileDescriptor: Int32
    /// The `errno` of the write that broke it; atomic, as a background writer's thread sets it.
    private let failed = Atomic<Int32>(0)
    /// Whether the destination has failed; nothing more is written.
    package var isBroken: Bool { failed.load(ordering: .relaxed) != 0 }
    /// Why it failed: the `errno` of the write that broke it (`EPIPE`: its reader went away;
    /// `EAGAIN`: its reader took nothing for 5 seconds); 0 while it has not.
    package var failure: Int32 { failed.load(ordering: .relaxed) }
    private let kind: Kind
    // Read for every write: no run-time exclusivity check, as for the batch's state (a display
    // writes under its session's lock).
    /// Where writes are gathered; `nil`: each write is written at once.
    @exclusivity(unchecked) package var batch: OutputBatch?
    /// The writer whose thread writes this output's bytes, and this output's lane in it; `nil`:
    /// written on the caller's thread.
    @exclusivity(unchecked) package var background: (writer: BackgroundWriter, lane: Int)?

    enum Kind { case socket, pipe, other }

    package init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        var info = stat()
        if fstat(fileDescriptor, &info) == 0 {
            let type = info.st_mode & S_IFMT
            kind = type == S_IFSOCK ? .socket : type == S_IFIFO ? .pipe : .other
        } else {
            kind = .other
        }
    }

    @discardableResult
    package func write(_ bytes: [UInt8]) -> Bool {
        guard !isBroken else { return false }
        guard !bytes.isEmpty else { return true }
        if let background {
            background.writer.write(bytes, lane: background.lane, droppable: false)
            return !isBroken
        }
        if let batch { return batch.append(bytes, to: self) && !isBroken }
        return bytes.withUnsafeBytes { writeNow($0) }
    }

    package var isBehind: Bool { background?.writer.isBehind ?? false }

    @discardableResult
    package func writeDisplayLine(_ bytes: [UInt8]) -> Bool {
        guard let background, !isBroken else { return write(bytes) }
        background.writer.write(bytes, lane: background.lane, droppable: true)
        return !isBroken
    }

    package func writeNow(_ raw: UnsafeRawBufferPointer) -> Bool {
        guard !isBroken else { return false }
        let error =
            switch kind {
            case .pipe: FileDescriptorOutput.withSIGPIPEBlocked { writeLines(raw) }
            // Where `send` has no flag against the signal (Darwin), as for a pipe.
            case .socket where !SystemCall.sendNeverSignals: FileDescriptorOutput.withSIGPIPEBlocked { writeAll(raw) }
            default: writeAll(raw)
            }
        if error != 0 { failed.store(error, ordering: .relaxed) }
        return error == 0
    }

    /// Into a pipe, a write of at most `PIPE_BUF` bytes is never mixed with other writers'
    /// bytes: many lines at once (a batch) go in writes that end at a line's end and stay
    /// within that size, so a pipe shared with other processes still gets whole lines.
    private func writeLines(_ raw: UnsafeRawBufferPointer) -> Int32 {
        let atomic = Int(PIPE_BUF)
        var start = 0
        while raw.count - start > atomic {
            var end = start + atomic
            while end > start, raw[end - 1] != 0x0A { end -= 1 }
            // A line longer than the atomic size: up to its end, as one write of its own.
            if end == start {
                end = start + atomic
                while end < raw.count, raw[end - 1] != 0x0A { end += 1 }
            }
            let error = writeAll(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
            guard error == 0 else { return error }
            start = end
        }
        return start == raw.count ? 0 : writeAll(UnsafeRawBufferPointer(rebasing: raw[start...]))
    }

    /// A reader that takes nothing for 5 seconds has gone: the output is broken. Returns the
    /// error, or 0.
    private func writeAll(_ raw: UnsafeRawBufferPointer) -> Int32 {
        let fd = fileDescriptor
        return SystemCall.writeAll(fd, raw, socket: kind == .socket) { _, _ in
            SystemCall.waitUntilWritable(fd, milliseconds: 5000)
        }
    }

    /// Runs `body` with SIGPIPE blocked in this thread; a SIGPIPE it raised is consumed.
    static func withSIGPIPEBlocked(_ body: () -> Int32) -> Int32 {
        var block = sigset_t()
        var previous = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGPIPE)
        var pendingBefore = sigset_t()
        sigpending(&pendingBefore)
        let wasPending = sigismember(&pendingBefore, SIGPIPE) == 1
        pthread_sigmask(SIG_BLOCK, &block, &previous)
        let result = body()
        if result != 0 && !wasPending { SystemCall.consumePendingSIGPIPE(&block) }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        return result
    }
}
