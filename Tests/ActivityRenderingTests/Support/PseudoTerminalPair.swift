import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal for output tests: renderers write to `terminal`, the test reads what a
/// terminal would receive from `controller`.
final class PseudoTerminalPair {
    let controller: Int32
    let terminal: Int32

    /// posix_openpt(3) and friends, which the Glibc module does not import.
    private static func function<T>(_ name: String, as type: T.Type) throws -> T {
        unsafeBitCast(try #require(dlsym(dlopen(nil, RTLD_NOW), name), "\(name) not found"), to: type)
    }

    init() throws {
        typealias IntFunction = @convention(c) (Int32) -> Int32
        let openPT = try Self.function("posix_openpt", as: IntFunction.self)
        let grantPT = try Self.function("grantpt", as: IntFunction.self)
        let unlockPT = try Self.function("unlockpt", as: IntFunction.self)
        let ptsName = try Self.function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
        controller = openPT(O_RDWR | O_NOCTTY)
        try #require(controller >= 0)
        try #require(grantPT(controller) == 0 && unlockPT(controller) == 0)
        terminal = open(String(cString: try #require(ptsName(controller))), O_RDWR | O_NOCTTY)
        try #require(terminal >= 0)
        var settings = termios()
        tcgetattr(terminal, &settings)
        settings.c_oflag &= ~tcflag_t(OPOST)  // bytes as written, no \r added
        tcsetattr(terminal, TCSANOW, &settings)
    }

    deinit {
        close(terminal)
        close(controller)
    }

    /// What arrived, read until `marker` has (at most five seconds of polling).
    func read(until marker: String) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<100 {
            var poller = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let count = Glibc.read(controller, &buffer, buffer.count)
            if count > 0 { bytes += buffer[..<count] }
            if String(decoding: bytes, as: UTF8.self).contains(marker) { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
