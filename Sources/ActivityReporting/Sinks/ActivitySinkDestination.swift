/// Where JSON lines go: the values of `ACTIVITY_SINK`.
///
/// ```swift
/// let destination = try ActivitySinkDestination(parsing: "unix:/run/user/1000/activity/sink")
/// try ActivitySystem.bootstrap(destination)
/// ```
public enum ActivitySinkDestination: Hashable, Sendable, CustomStringConvertible {
    /// `unix:PATH`: connect to a listening stream socket; one connection per process (a child made
    /// by `fork()` opens its own).
    case unixSocket(path: String)
    /// `fd:N`: an open file descriptor, usually a pipe. Its flags are never changed.
    case fileDescriptor(Int32)
    /// `file:PATH`: append to a file, created if needed.
    case file(path: String)
    /// `stdout`.
    case standardOutput
    /// `stderr`.
    case standardError
    /// `none`: write nothing.
    case none

    /// Parses a value of `ACTIVITY_SINK`.
    ///
    /// - Throws: ``ActivitySinkError`` naming what is wrong with `spec`.
    public init(parsing spec: String) throws(ActivitySinkError) {
        switch spec {
        case "stdout": self = .standardOutput
        case "stderr": self = .standardError
        case "none": self = .none
        default:
            if let path = spec.dropPrefix("unix:") {
                guard !path.isEmpty else { throw ActivitySinkError("unix: needs a socket path") }
                guard path.utf8.count < 108 else {
                    throw ActivitySinkError("the socket path is \(path.utf8.count) bytes; the system allows 107")
                }
                self = .unixSocket(path: path)
            } else if let path = spec.dropPrefix("file:") {
                guard !path.isEmpty else { throw ActivitySinkError("file: needs a path") }
                self = .file(path: path)
            } else if let number = spec.dropPrefix("fd:") {
                guard let fd = Int32(number), fd >= 0 else {
                    throw ActivitySinkError(
                        "fd: needs a non-negative descriptor number, not \(number.debugDescription)")
                }
                self = .fileDescriptor(fd)
            } else {
                throw ActivitySinkError(
                    "expected unix:PATH, fd:N, file:PATH, stdout, stderr or none, not \(spec.debugDescription)"
                )
            }
        }
    }

    /// The `ACTIVITY_SINK` spelling.
    public var description: String {
        switch self {
        case .unixSocket(let path): "unix:\(path)"
        case .fileDescriptor(let fd): "fd:\(fd)"
        case .file(let path): "file:\(path)"
        case .standardOutput: "stdout"
        case .standardError: "stderr"
        case .none: "none"
        }
    }
}

extension ActivitySinkDestination {
    /// Whether it may name a control channel (`ACTIVITY_CONTROL`): `fd:N` or `unix:PATH`.
    var isControlChannel: Bool {
        switch self {
        case .fileDescriptor, .unixSocket: true
        default: false
        }
    }
}

/// A sink that cannot be used: a bad `ACTIVITY_SINK`, a file that cannot be opened, a socket
/// nobody listens on.
public struct ActivitySinkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, for a person.
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

extension String {
    fileprivate func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
