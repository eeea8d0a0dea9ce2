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
    /// Writes all of `bytes` to `fd` (with `send(2)` and ``noSignal`` when it is a `socket`),
    /// going on after an interruption. When `fd` takes nothing more for now (`EAGAIN`, on a
    /// descriptor someone else made non-blocking, or a socket), `stalled` is asked whether to go
    /// on, with the number of stalls so far (from 1) and of bytes written; it may wait first
    /// (``waitUntilWritable(_:milliseconds:)``).
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
            let pointer = bytes.baseAddress! + offset
            let remaining = bytes.count - offset
            let count = socket ? send(fd, pointer, remaining, noSignal) : write(fd, pointer, remaining)
            if count > 0 {
                offset += count
                continue
            }
            let error = count < 0 ? errno : EIO
            if error == EINTR { continue }
            guard error == EAGAIN || error == EWOULDBLOCK else { return error }
            stalls += 1
            guard stalled(stalls, offset) else { return EAGAIN }
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
