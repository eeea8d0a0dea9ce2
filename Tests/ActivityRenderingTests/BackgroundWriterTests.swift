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

    @Test("a queue seen behind wakes its caught-up descriptor once it has drained to half")
    func wakesWhenCaughtUp() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { for fd in fds { close(fd) } }
        let output = FileDescriptorOutput(fileDescriptor: fds[1])
        let writer = BackgroundWriter(outputs: [output], display: output, capacity: 1 << 16)
        defer { writer.finish() }
        let caughtUp = try #require(writer.caughtUpDescriptor)
        // Three times what the queue may hold before it is behind, and nothing reads the pipe.
        for _ in 0..<6 { _ = output.write([UInt8](repeating: UInt8(ascii: "x"), count: 1 << 15)) }
        #expect(writer.isBehind)
        var poller = pollfd(fd: caughtUp, events: Int16(POLLIN), revents: 0)
        #expect(poll(&poller, 1, 0) == 0)
        var read = [UInt8](repeating: 0, count: 1 << 16)
        // Read until the descriptor wakes; a minute bounds a broken writer only.
        var waited = 0
        while poll(&poller, 1, 10) == 0, waited < 6000 {
            _ = Glibc.read(fds[0], &read, read.count)
            waited += 1
        }
        #expect(poller.revents & Int16(POLLIN) != 0)
        #expect(!writer.isBehind)
        writer.takeCaughtUp()
        #expect(poll(&poller, 1, 0) == 0)
        while !writer.waitUntilWritten(seconds: 0.01) { _ = Glibc.read(fds[0], &read, read.count) }
    }
}
