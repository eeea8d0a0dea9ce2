import ActivityPOSIX
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one writer: one write whose result says what happened, under every write loop.
@Suite("SystemCall.write: written, would block, failed")
struct WriteTests {
    @Test("bytes written are what the reader reads")
    func writesBytes() throws {
        var ends: [Int32] = []
        try #require(SystemCall.pipe(&ends))
        defer { ends.forEach { SystemCall.close($0) } }
        #expect(try SystemCall.write(ends[1], from: Array("keys".utf8)) == .written(4))
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try SystemCall.read(ends[0], into: &buffer) == .bytes(4))
        #expect(Array(buffer[..<4]) == Array("keys".utf8))
    }

    @Test("a full non-blocking pipe would block, and nothing was written by that call")
    func fullPipeWouldBlock() throws {
        var ends: [Int32] = []
        try #require(SystemCall.pipe(&ends, nonBlocking: true))
        defer { ends.forEach { SystemCall.close($0) } }
        let chunk = [UInt8](repeating: 0x61, count: 4096)
        var total = 0
        var last = WriteResult.written(0)
        // A pipe holds a bounded amount (64 KiB on Linux); the bound guards against one that does not.
        for _ in 0..<10_000 {
            last = try SystemCall.write(ends[1], from: chunk)
            guard case .written(let count) = last else { break }
            total += count
        }
        #expect(last == .wouldBlock)
        #expect(total > 0)
    }

    @Test("a socket whose reader has gone fails with EPIPE, named send, and raises no SIGPIPE")
    func goneReaderFails() throws {
        var pair: [Int32] = []
        try #require(SystemCall.unixStreamSocketPair(&pair))
        SystemCall.close(pair[0])
        defer { SystemCall.close(pair[1]) }
        #expect(throws: SystemError("send", code: EPIPE)) {
            try SystemCall.write(pair[1], from: Array("line\n".utf8), socket: true, dontWait: true)
        }
    }

    @Test("an empty write writes nothing, and a closed descriptor is a failure of write")
    func emptyAndClosed() throws {
        #expect(try SystemCall.write(-1, from: []) == .written(0))
        #expect(throws: SystemError("write", code: EBADF)) { try SystemCall.write(-1, from: [1]) }
    }
}
