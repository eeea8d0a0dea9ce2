import Testing

@testable import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The small calls the commands share: pipes, the environment, sleeping, an errno's words.
@Suite("SystemCall, SystemClock, SystemError: the small calls")
struct SystemCallTests {
    @Test("a pipe is close-on-exec at both ends, and non-blocking at both when asked", arguments: [false, true])
    func pipe(nonBlocking: Bool) throws {
        var ends: [Int32] = []
        try #require(SystemCall.pipe(&ends, nonBlocking: nonBlocking))
        defer { ends.forEach { SystemCall.close($0) } }
        for fd in ends {
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
            #expect((fcntl(fd, F_GETFL) & O_NONBLOCK != 0) == nonBlocking)
        }
    }

    @Test("a wake-up pipe wakes once however often it is woken, and drains without waiting")
    func wakeUpPipe() throws {
        let pipe = try WakeUpPipe()
        defer { pipe.close() }
        for _ in 0..<100 { pipe.wake() }
        var poller = pollfd(fd: pipe.readEnd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&poller, 1, 0) == 1)
        pipe.drain()
        #expect(poll(&poller, 1, 0) == 0)
    }

    @Test("a positioned write puts every byte where it is asked, and leaves the file's offset alone")
    func positionedWrite() throws {
        let fd = try TemporaryFile.make(prefix: "activity-pwrite").get()
        defer { SystemCall.close(fd) }
        let bytes = Array("0123456789".utf8)
        #expect(bytes.withUnsafeBytes { SystemCall.writeAll(fd, $0, at: 0) } == 0)
        #expect(Array("abc".utf8).withUnsafeBytes { SystemCall.writeAll(fd, $0, at: 4) } == 0)
        #expect(lseek(fd, 0, SEEK_CUR) == 0)
        #expect(try SystemCall.readToEnd(fd, limit: 100) == Array("0123abc789".utf8))
        #expect(bytes.withUnsafeBytes { SystemCall.writeAll(-1, $0, at: 0) } == EBADF)
    }

    @Test("a variable of the environment, or nil")
    func environment() {
        #expect(
            SystemCall.environment("PATH")
                == SystemCall.environment().last { $0.hasPrefix("PATH=") }?.dropFirst(5).description)
        #expect(SystemCall.environment("ACTIVITY_NO_SUCH_VARIABLE_HERE") == nil)
    }

    @Test("sleep waits at least as long as asked; nothing, or a time out of range, returns")
    func sleep() {
        let start = SystemClock.monotonicSeconds()
        SystemClock.sleep(seconds: 0.02)
        #expect(SystemClock.monotonicSeconds() - start >= 0.02)
        SystemClock.sleep(seconds: 0)
        SystemClock.sleep(seconds: -.infinity)
        SystemClock.sleep(seconds: .nan)
    }

    @Test("an errno in the system's words, after the call that failed")
    func errorWords() {
        #expect(SystemError.reason(ENOENT) == "No such file or directory")
        #expect(SystemError("open", code: ENOSPC).description == "open: No space left on device")
    }
}
