#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a stream's bytes come from.
public protocol ByteSource {
    /// Reads up to `buffer.count` bytes into `buffer` and returns how many; 0 at the end.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// An error reading a file descriptor.
public struct ReadError: Error, Hashable, Sendable, CustomStringConvertible {
    public var errno: Int32

    public var description: String { String(cString: strerror(errno)) }
}

/// Bytes read from a file descriptor with `read(2)`. The descriptor is neither changed nor closed.
public struct FileDescriptorSource: ByteSource, Sendable {
    public let fileDescriptor: Int32

    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = systemRead(fileDescriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            let error = errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK {
                // A non-blocking descriptor that we must not change: wait until it is readable.
                var poller = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&poller, 1, -1)
                continue
            }
            throw ReadError(errno: error)
        }
    }
}

/// Bytes held in memory, handed out in chunks of at most `chunkSize` (tests use small chunks to
/// cut lines at every possible place).
public struct BytesSource: ByteSource, Sendable {
    private let bytes: [UInt8]
    private var offset = 0
    private let chunkSize: Int

    public init(_ bytes: some Sequence<UInt8>, chunkSize: Int = 1 << 16) {
        self.bytes = Array(bytes)
        self.chunkSize = max(1, chunkSize)
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, chunkSize, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}

/// `read(2)`, named at the top level, where no method called `read` hides it.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
