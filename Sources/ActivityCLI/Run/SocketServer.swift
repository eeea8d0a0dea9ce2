#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The listening Unix stream socket of `activity run`, in a fresh private directory.
///
/// The directory comes from `mkdtemp` (mode 0700) under `TMPDIR` (or `/tmp` when that path would
/// be too long for a socket address); ``close()`` removes the socket and the directory.
/// Connections from a process of another user are refused (`SO_PEERCRED`).
final class SocketServer {
    let directory: String
    let path: String
    private(set) var fileDescriptor: Int32

    enum Failure: Error {
        case system(String, Int32)
        var message: String {
            switch self {
            case .system(let what, let error): "\(what): \(POSIX.describe(error))"
            }
        }
    }

    init() throws(Failure) {
        let base = POSIX.environment("TMPDIR").flatMap { $0.isEmpty || $0.utf8.count > 80 ? nil : $0 } ?? "/tmp"
        var template = Array((base.hasSuffix("/") ? base : base + "/").utf8CString.dropLast()) + Array("activity-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw .system("mkdtemp \(base)", errno) }
        directory = String(cString: made)
        path = directory + "/sink"
        fileDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fileDescriptor >= 0 else {
            let error = errno
            rmdir(directory)
            throw .system("socket", error)
        }
        guard var address = UnixAddress(path: path) else {
            close()
            throw .system(path, ENAMETOOLONG)
        }
        let bound = address.withSockaddr { bind(fileDescriptor, $0, $1) }
        guard bound == 0, listen(fileDescriptor, 128) == 0 else {
            let error = errno
            close()
            throw .system("listen on \(path)", error)
        }
        _ = fcntl(fileDescriptor, F_SETFL, fcntl(fileDescriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Accepts one pending connection. Returns `nil` when none is pending; a connection from
    /// another user is closed at once and reported through `refused`.
    func accept(refused: (uid_t) -> Void) -> Int32? {
        while true {
            let fd = Glibc.accept(fileDescriptor, nil, nil)
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return nil
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            let uid = Self.peerUID(fd)
            guard uid == getuid() else {
                Glibc.close(fd)
                refused(uid ?? uid_t.max)
                continue
            }
            return fd
        }
    }

    /// The uid of the process at the other end of a Unix socket.
    static func peerUID(_ fd: Int32) -> uid_t? {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; }
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.uid
    }

    /// Closes the socket and removes it and its directory.
    func close() {
        if fileDescriptor >= 0 {
            Glibc.close(fileDescriptor)
            fileDescriptor = -1
        }
        unlink(path)
        rmdir(directory)
    }

    deinit { close() }
}
