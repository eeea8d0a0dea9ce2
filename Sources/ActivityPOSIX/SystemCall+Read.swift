#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The package's reads. Each goes on after an interruption (`EINTR`) by itself and says what
/// happened as a value; a failure is a ``SystemError`` naming the call.
extension SystemCall {
    /// One read of what `fd` holds now, into `buffer` (which is not empty).
    ///
    /// ```swift
    /// switch try SystemCall.read(fd, into: buffer) {
    /// case .bytes(let count): consume(buffer[..<count])
    /// case .wouldBlock: break  // poll again
    /// case .endOfFile: close(fd)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - fd: the descriptor; its flags are left as they are.
    ///   - buffer: where the bytes go.
    ///   - dontWait: `fd` is a socket, read with `recv(MSG_DONTWAIT)`: never waits, whether or not
    ///     the socket (someone else's) is non-blocking.
    /// - Returns: the bytes read, ``ReadResult/wouldBlock`` or ``ReadResult/endOfFile``.
    /// - Throws: ``SystemError`` of `read` (or `recv`) for any other failure.
    package static func read(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, dontWait: Bool = false
    ) throws(SystemError) -> ReadResult {
        while true {
            let count =
                dontWait
                ? recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
                : read(fd, buffer.baseAddress, buffer.count)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .endOfFile }
            let error = errno
            switch error {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: throw SystemError(dontWait ? "recv" : "read", code: error)
            }
        }
    }

    /// One read of what `fd` holds now, into `buffer`: ``read(_:into:dontWait:)`` for an array.
    package static func read(
        _ fd: Int32, into buffer: inout [UInt8], dontWait: Bool = false
    ) throws(SystemError) -> ReadResult {
        // `withUnsafeMutableBytes` rethrows untyped: the error comes out through a `Result`.
        try buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemError) in try read(fd, into: raw, dontWait: dontWait) }
        }.get()
    }

    /// Everything `fd` holds up to its end, but never more than `limit` bytes: a blocking
    /// descriptor, a file of the kernel's (`/proc`) or one of ours.
    ///
    /// - Returns: the bytes, `limit` of them at most; ask for one more than the most you accept
    ///   to tell a file that is too large.
    /// - Throws: ``SystemError`` of `read` (`EAGAIN` for a descriptor that does not wait).
    package static func readToEnd(_ fd: Int32, limit: Int) throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(max(limit, 1), 1 << 16))
        while bytes.count < limit {
            switch try read(fd, into: &chunk) {
            case .bytes(let count): bytes += chunk[..<min(count, limit - bytes.count)]
            case .endOfFile: return bytes
            case .wouldBlock: throw SystemError("read", code: EAGAIN)
            }
        }
        return bytes
    }

    /// Fills `buffer` from `offset` of the file `fd` (`pread(2)`, which leaves the file's offset
    /// as it is), unless the file ends first.
    ///
    /// - Returns: how many bytes were read: `buffer.count`, or fewer where the file ends.
    /// - Throws: ``SystemError`` of `pread`.
    package static func read(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int
    ) throws(SystemError) -> Int {
        var done = 0
        while done < buffer.count {
            let count = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if count > 0 {
                done += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw SystemError("pread")
            }
        }
        return done
    }
}
