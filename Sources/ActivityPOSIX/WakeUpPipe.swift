#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pipe that wakes a thread waiting in `poll(2)`: the thread polls `readEnd` beside what it
/// really waits for, and another thread calls `wake()`. Both ends are close-on-exec and
/// non-blocking from the start (`pipe2`), so no child spawned meanwhile inherits one, a wake-up
/// never blocks (a full pipe wakes already), and draining never waits.
package struct WakeUpPipe: Sendable {
    /// The end to poll for `POLLIN`.
    package let readEnd: Int32
    /// The end `wake()` writes: for a signal handler, which can only write a descriptor.
    package let writeEnd: Int32

    package init() throws(SystemError) {
        var ends: [Int32] = [-1, -1]
        #if canImport(Glibc) || canImport(Musl)
            let made = ends.withUnsafeMutableBufferPointer { pipeWithFlags($0.baseAddress!, O_CLOEXEC | O_NONBLOCK) }
            guard made == 0 else { throw SystemError("pipe2") }
        #else
            guard Darwin.pipe(&ends) == 0 else { throw SystemError("pipe") }
            for fd in ends {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        #endif
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Wakes the waiting thread, or the next one to wait.
    package func wake() {
        var byte: UInt8 = 1
        _ = SystemCall.write(writeEnd, &byte, 1)
    }

    /// Takes every wake-up so far, so that the next poll waits again.
    package func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while case .bytes? = try? SystemCall.read(readEnd, into: &buffer) {}
    }

    /// Closes both ends: once, when no thread polls or wakes it any more.
    package func close() {
        _ = SystemCall.close(readEnd)
        _ = SystemCall.close(writeEnd)
    }
}
