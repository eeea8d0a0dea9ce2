import ActivityPOSIX
import Testing

@testable import ActivityRendering

#if canImport(Glibc)
    import Glibc
#endif

@Suite("The background writer")
struct BackgroundWriterTests {
    @Test("waitUntilWritten returns true once the queue is written, write after write")
    func waitsForTheWrite() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { for fd in fds { close(fd) } }
        let output = FileDescriptorOutput(fileDescriptor: fds[1])
        let writer = BackgroundWriter(outputs: [output], display: output)
        defer { writer.finish() }
        let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        for _ in 0..<8 {
            _ = output.write(bytes)
            // A minute is a bound for a broken writer only; a written queue returns at once.
            #expect(writer.waitUntilWritten(seconds: 60))
            var read = [UInt8](repeating: 0, count: 8192)
            #expect(Glibc.read(fds[0], &read, read.count) == 4096)
        }
    }

    @Test("a reader that takes nothing: waitUntilWritten gives up after the time given")
    func givesUp() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { for fd in fds { close(fd) } }
        let output = FileDescriptorOutput(fileDescriptor: fds[1])
        let writer = BackgroundWriter(outputs: [output], display: output)
        // More than a pipe holds, and nothing reads it.
        _ = output.write([UInt8](repeating: UInt8(ascii: "x"), count: 1 << 18))
        #expect(!writer.waitUntilWritten(seconds: 0.05))
        // The writer's thread is still blocked in its write: let it finish by reading the pipe.
        var read = [UInt8](repeating: 0, count: 1 << 16)
        while !writer.waitUntilWritten(seconds: 0.01) { _ = Glibc.read(fds[0], &read, read.count) }
        writer.finish()
    }
}
