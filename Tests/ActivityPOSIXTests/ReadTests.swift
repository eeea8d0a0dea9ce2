import Testing

@testable import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one reader: what a read found is a value, whatever the descriptor.
@Suite("SystemCall.read: bytes, would block, end of file, failure")
struct ReadTests {
    /// A pipe whose read end does not wait.
    static func nonBlockingPipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = []
        try #require(SystemCall.pipe(&ends))
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        return (ends[0], ends[1])
    }

    static func write(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        #expect(SystemCall.write(fd, bytes, bytes.count) == bytes.count)
    }

    @Test("what is there, then would block, then end of file once the writer closes")
    func pipeStates() throws {
        let pipe = try Self.nonBlockingPipe()
        defer { SystemCall.close(pipe.read) }
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try SystemCall.read(pipe.read, into: &buffer) == .wouldBlock)
        Self.write("hello", to: pipe.write)
        #expect(try SystemCall.read(pipe.read, into: &buffer) == .bytes(5))
        #expect(buffer.prefix(5) == Array("hello".utf8)[...])
        #expect(try SystemCall.read(pipe.read, into: &buffer) == .wouldBlock)
        SystemCall.close(pipe.write)
        #expect(try SystemCall.read(pipe.read, into: &buffer) == .endOfFile)
    }

    @Test("a read takes at most the buffer; the rest waits for the next")
    func shortBuffer() throws {
        let pipe = try Self.nonBlockingPipe()
        defer { [pipe.read, pipe.write].forEach { SystemCall.close($0) } }
        Self.write("abcdef", to: pipe.write)
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(try SystemCall.read(pipe.read, into: &buffer) == .bytes(4))
        #expect(try SystemCall.read(pipe.read, into: &buffer) == .bytes(2))
        #expect(buffer.prefix(2) == Array("ef".utf8)[...])
    }

    @Test("a failure is a SystemError naming the call and its errno")
    func failure() throws {
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(throws: SystemError("read", code: EBADF)) { try SystemCall.read(-1, into: &buffer) }
        #expect(throws: SystemError("recv", code: EBADF)) { try SystemCall.read(-1, into: &buffer, dontWait: true) }
        #expect(SystemError("read", code: EBADF).description == "read: Bad file descriptor")
    }

    @Test("dontWait reads a blocking socket without waiting and leaves its flags alone")
    func dontWait() throws {
        var pair: [Int32] = []
        try #require(SystemCall.unixStreamSocketPair(&pair))
        defer { pair.forEach { SystemCall.close($0) } }
        let flags = fcntl(pair[0], F_GETFL)
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(try SystemCall.read(pair[0], into: &buffer, dontWait: true) == .wouldBlock)
        Self.write("x", to: pair[1])
        #expect(try SystemCall.read(pair[0], into: &buffer, dontWait: true) == .bytes(1))
        #expect(fcntl(pair[0], F_GETFL) == flags)
        SystemCall.close(pair[1])
        pair.removeLast()
        #expect(try SystemCall.read(pair[0], into: &buffer, dontWait: true) == .endOfFile)
    }

    @Test("readToEnd reads a file whole, and never more than its limit")
    func readToEnd() throws {
        let fd = try TemporaryFile.make(prefix: "activity-read").get()
        defer { SystemCall.close(fd) }
        let text = String(repeating: "0123456789", count: 10_000)
        Self.write(text, to: fd)
        lseek(fd, 0, SEEK_SET)
        #expect(try SystemCall.readToEnd(fd, limit: 1 << 20) == Array(text.utf8))
        lseek(fd, 0, SEEK_SET)
        #expect(try SystemCall.readToEnd(fd, limit: 15) == Array("012345678901234".utf8))
    }

    @Test("readToEnd of a descriptor that does not wait fails with EAGAIN, not an empty file")
    func readToEndWouldBlock() throws {
        let pipe = try Self.nonBlockingPipe()
        defer { [pipe.read, pipe.write].forEach { SystemCall.close($0) } }
        #expect(throws: SystemError("read", code: EAGAIN)) { try SystemCall.readToEnd(pipe.read, limit: 10) }
    }

    @Test("a positioned read fills the buffer, or stops where the file ends")
    func positioned() throws {
        let fd = try TemporaryFile.make(prefix: "activity-pread").get()
        defer { SystemCall.close(fd) }
        Self.write("0123456789", to: fd)
        var buffer = [UInt8](repeating: 0, count: 4)
        let full = try buffer.withUnsafeMutableBytes { try SystemCall.read(fd, into: $0, at: 3) }
        #expect(full == 4 && buffer == Array("3456".utf8))
        let short = try buffer.withUnsafeMutableBytes { try SystemCall.read(fd, into: $0, at: 8) }
        #expect(short == 2 && buffer.prefix(2) == Array("89".utf8)[...])
        #expect(throws: SystemError("pread", code: EBADF)) {
            try buffer.withUnsafeMutableBytes { try SystemCall.read(-1, into: $0, at: 0) }
        }
    }
}
