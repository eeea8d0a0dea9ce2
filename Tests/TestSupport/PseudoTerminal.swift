import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pseudo-terminal opened by the test: the code under test draws on and reads from its terminal
/// side; the test types into its controlling side and reads, on a thread of its own, everything
/// that side receives. ``close()`` ends it.
package final class PseudoTerminal: Sendable {
    package let master: Int32
    package let terminal: Int32
    private let output = Mutex<[UInt8]>([])
    private let stop = Atomic<Bool>(false)
    private let stopped = DispatchSemaphore(value: 0)

    /// posix_openpt(3) and friends, which the Glibc module does not import.
    private static func function<T>(_ name: String, as type: T.Type) throws -> T {
        unsafeBitCast(try #require(dlsym(dlopen(nil, RTLD_NOW), name), "\(name) not found"), to: type)
    }

    /// A terminal of `columns` × `rows`; without `outputProcessing`, the bytes written arrive as
    /// they are (no `\r` added before `\n`).
    package init(columns: UInt16 = 48, rows: UInt16 = 14, outputProcessing: Bool = true) throws {
        typealias IntFunction = @convention(c) (Int32) -> Int32
        let openPT = try Self.function("posix_openpt", as: IntFunction.self)
        let grantPT = try Self.function("grantpt", as: IntFunction.self)
        let unlockPT = try Self.function("unlockpt", as: IntFunction.self)
        let ptsName = try Self.function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
        master = openPT(O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        try #require(grantPT(master) == 0 && unlockPT(master) == 0)
        let name = String(cString: try #require(ptsName(master)))
        terminal = open(name, O_RDWR | O_NOCTTY)
        try #require(terminal >= 0)
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(terminal, UInt(TIOCSWINSZ), &size)
        if !outputProcessing {
            var settings = termios()
            tcgetattr(terminal, &settings)
            settings.c_oflag &= ~tcflag_t(OPOST)
            tcsetattr(terminal, TCSANOW, &settings)
        }
        Thread.detachNewThread { [self] in readLoop() }
    }

    private func readLoop() {
        defer { stopped.signal() }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !stop.load(ordering: .acquiring) {
            var fd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, 20) > 0 else { continue }
            let count = read(master, &buffer, buffer.count)
            if count > 0 { output.withLock { $0 += buffer[..<count] } } else if count < 0, errno != EINTR { return }
        }
    }

    /// Everything drawn so far.
    package var text: String { output.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Types bytes on the keyboard.
    package func type(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// The terminal side's settings now.
    package var settings: termios {
        var settings = termios()
        tcgetattr(terminal, &settings)
        return settings
    }

    /// Waits for `condition`; the test fails if it does not hold within a minute.
    package func wait(sourceLocation: SourceLocation = #_sourceLocation, for condition: () -> Bool) throws {
        let held = Poll.until(timeout: 60, every: 0.005, condition)
        try #require(held, sourceLocation: sourceLocation)
    }

    /// Stops reading and closes both sides.
    package func close() {
        stop.store(true, ordering: .releasing)
        stopped.wait()
        closeDescriptor(terminal)
        closeDescriptor(master)
    }
}

/// `close(2)`, which the class's own ``PseudoTerminal/close()`` hides inside it.
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}
