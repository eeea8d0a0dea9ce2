#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#else
    #error("ActivityPOSIX is not supported on this platform yet: it needs Glibc, Musl or Darwin")
#endif

extension SystemCall {
    /// One write of what `fd` takes now of `bytes`, going on after an interruption (`EINTR`):
    /// the one writer under every write loop of the package, each of which keeps its own policy
    /// for a descriptor that is full (wait, read the other side meanwhile, give up, drop).
    ///
    /// ```swift
    /// switch try SystemCall.write(fd, from: bytes) {
    /// case .written(let count): bytes.removeFirst(count)
    /// case .wouldBlock: break  // poll for POLLOUT, or keep the rest for later
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - fd: the descriptor; its flags are left as they are.
    ///   - bytes: what to write.
    ///   - socket: `fd` is a socket: written with `send(2)` and ``noSignal``.
    ///   - dontWait: with `socket`, `MSG_DONTWAIT`: never waits, whether or not the socket (someone
    ///     else's) is non-blocking.
    /// - Returns: how many bytes were written, or ``WriteResult/wouldBlock``.
    /// - Throws: ``SystemError`` of `write` (or `send`) for any other failure; `EIO` for a write of
    ///   nothing. `EPIPE` when the reader has gone (on a pipe, the `SIGPIPE` it raised is the
    ///   caller's: ``consumePendingSIGPIPE(_:)`` where the signal is blocked).
    package static func write(
        _ fd: Int32, from bytes: UnsafeRawBufferPointer, socket: Bool = false, dontWait: Bool = false
    ) throws(SystemError) -> WriteResult {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return .written(0) }
        while true {
            let count =
                socket
                ? send(fd, start, bytes.count, noSignal | (dontWait ? Int32(MSG_DONTWAIT) : 0))
                : write(fd, start, bytes.count)
            if count > 0 { return .written(count) }
            let error = count < 0 ? errno : EIO
            switch error {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: throw SystemError(socket ? "send" : "write", code: error)
            }
        }
    }

    /// One write of what `fd` takes now of `bytes`: ``write(_:from:socket:dontWait:)`` for an array.
    package static func write(
        _ fd: Int32, from bytes: [UInt8], socket: Bool = false, dontWait: Bool = false
    ) throws(SystemError) -> WriteResult {
        // `withUnsafeBytes` rethrows untyped: the error comes out through a `Result`.
        try bytes.withUnsafeBytes { raw in
            Result { () throws(SystemError) in try write(fd, from: raw, socket: socket, dontWait: dontWait) }
        }.get()
    }

    /// Writes all of `bytes` to `fd` (with `send(2)` and ``noSignal`` when it is a `socket`),
    /// one ``write(_:from:socket:dontWait:)`` after another. When `fd` takes nothing more for now
    /// (`EAGAIN`, on a descriptor someone else made non-blocking, or a socket), `stalled` is asked
    /// whether to go on, with the number of stalls so far (from 1) and of bytes written; it may
    /// wait first (``waitUntilWritable(_:milliseconds:)``).
    /// Each caller chooses how long a reader may stall it: a terminal's frames are dropped
    /// sooner than a log's lines.
    ///
    /// Returns 0 once everything is written, else the error (`EIO` for a write of nothing,
    /// `EAGAIN` when `stalled` gave up).
    package static func writeAll(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, socket: Bool = false,
        stalled: (_ stalls: Int, _ written: Int) -> Bool
    ) -> Int32 {
        var offset = 0
        var stalls = 0
        while offset < bytes.count {
            do throws(SystemError) {
                switch try write(fd, from: UnsafeRawBufferPointer(rebasing: bytes[offset...]), socket: socket) {
                case .written(let count):
                    offset += count
                case .wouldBlock:
                    stalls += 1
                    guard stalled(stalls, offset) else { return EAGAIN }
                }
            } catch {
                return error.code
            }
        }
        return 0
    }

    /// Writes all of `bytes` at `offset` of the file `fd` (`pwrite(2)`, which leaves the file's
    /// offset as it is), going on after an interruption.
    ///
    /// Returns 0 once everything is written, else the error (`EIO` for a write of nothing).
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int32 {
        var done = 0
        while done < bytes.count {
            let count = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if count > 0 {
                done += count
            } else if count == 0 {
                return EIO
            } else if errno != EINTR {
                return errno
            }
        }
        return 0
    }

    /// Waits until `fd` takes more bytes, at most `milliseconds`; whether it does.
    @discardableResult
    package static func waitUntilWritable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        return poll(&poller, 1, milliseconds) > 0
    }
}
