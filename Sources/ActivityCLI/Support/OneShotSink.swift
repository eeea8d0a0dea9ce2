#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes one event line to the destination `ACTIVITY_SINK` names, with a single `write(2)`, and
/// starts no thread: what `activity emit` needs to be cheap in a shell loop.
///
/// Specs: `unix:PATH` (connect, check, `send` with `MSG_NOSIGNAL`), `fd:N`, `file:PATH` (append),
/// `stdout`, `stderr`, `none`. A destination that is gone never fails the caller: the line is
/// dropped and ``write(_:)`` says why, for a warning.
struct OneShotSink: Sendable {
    enum Destination: Equatable, Sendable {
        case none
        case unix(String)
        case fileDescriptor(Int32)
        case file(String)
    }

    let destination: Destination

    /// Parses an `ACTIVITY_SINK` value.
    init(spec: String) throws(SinkSpecError) {
        switch spec {
        case "", "none": destination = .none
        case "stdout": destination = .fileDescriptor(1)
        case "stderr": destination = .fileDescriptor(2)
        default:
            if spec.hasPrefix("unix:"), spec.count > 5 {
                destination = .unix(String(spec.dropFirst(5)))
            } else if spec.hasPrefix("file:"), spec.count > 5 {
                destination = .file(String(spec.dropFirst(5)))
            } else if spec.hasPrefix("fd:"), let fd = Int32(spec.dropFirst(3)), fd >= 0 {
                destination = .fileDescriptor(fd)
            } else {
                throw SinkSpecError(spec: spec)
            }
        }
    }

    /// Sends `line` (newline included). Returns a reason when the line could not be delivered.
    func write(_ line: [UInt8]) -> String? {
        switch destination {
        case .none:
            return nil
        case .fileDescriptor(let fd):
            return send(line, to: fd, socket: false).map { "fd \(fd): \($0)" }
        case .file(let path):
            let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else { return "\(path): \(POSIX.describe(errno))" }
            defer { close(fd) }
            return send(line, to: fd, socket: false).map { "\(path): \($0)" }
        case .unix(let path):
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return "socket: \(POSIX.describe(errno))" }
            defer { close(fd) }
            guard var address = UnixAddress(path: path) else { return "\(path): the socket path is too long" }
            let connected = address.withSockaddr { connect(fd, $0, $1) }
            guard connected == 0 else { return "\(path): \(POSIX.describe(errno))" }
            return send(line, to: fd, socket: true).map { "\(path): \($0)" }
        }
    }

    private func send(_ line: [UInt8], to fd: Int32, socket: Bool) -> String? {
        var offset = 0
        return line.withUnsafeBytes { bytes -> String? in
            while offset < bytes.count {
                let count =
                    socket
                    ? Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                    : Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if count > 0 {
                    offset += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    return count < 0 ? POSIX.describe(errno) : "nothing written"
                }
            }
            return nil
        }
    }
}

/// An `ACTIVITY_SINK` value that names no known destination.
struct SinkSpecError: Error, Sendable {
    var spec: String
    var message: String {
        "ACTIVITY_SINK='\(spec)' is not one of unix:PATH, fd:N, file:PATH, stdout, stderr, none"
    }
}

/// A `sockaddr_un` for a path.
struct UnixAddress {
    private var storage = sockaddr_un()

    /// `nil` when the path does not fit in `sun_path`.
    init?(path: String) {
        storage.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }

    mutating func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        return withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
