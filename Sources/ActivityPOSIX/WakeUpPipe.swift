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
        var ends: [Int32] = []
        guard SystemCall.pipe(&ends, nonBlocking: true) else { throw SystemError(Self.call) }
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

    /// The call that makes the pipe, as a failure names it.
    private static var call: String {
        #if canImport(Glibc) || canImport(Musl)
            "pipe2"
        #else
            "pipe"
        #endif
    }

    /// Closes both ends: once, when no thread polls or wakes it any more.
    package func close() {
        _ = SystemCall.close(readEnd)
        _ = SystemCall.close(writeEnd)
    }
}
