import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The listening Unix stream socket of `activity run`, in a fresh private directory.
///
/// The directory comes from `mkdtemp` (mode 0700) under `TMPDIR` made absolute (or `/tmp` when
/// that path would be too long for a socket address), named after this process
/// (`activity-PID-XXXXXX`); ``close()`` removes the socket and the directory. A run killed by
/// SIGKILL cannot clean up, so each new run removes the directories of runs whose process is
/// gone. Connections from a process of another user are refused (`UnixAddress.peerUser`).
final class SocketServer {
    let directory: String
    let path: String
    private(set) var fileDescriptor: Int32

    init() throws(SystemError) {
        let base = Self.baseDirectory()
        Self.removeStaleDirectories(in: base)
        var template = Array((base + "/" + Self.prefix + "\(getpid())-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemError("mkdtemp \(base)", code: errno) }
        directory = String(cString: made)
        path = directory + "/sink"
        fileDescriptor = SystemCall.unixStreamSocket()
        guard fileDescriptor >= 0 else {
            let error = errno
            rmdir(directory)
            throw SystemError("socket", code: error)
        }
        guard var address = UnixAddress(path: path) else {
            close()
            throw SystemError(path, code: ENAMETOOLONG)
        }
        let bound = address.withSockaddr { bind(fileDescriptor, $0, $1) }
        guard bound == 0, listen(fileDescriptor, 128) == 0 else {
            let error = errno
            close()
            throw SystemError("listen on \(path)", code: error)
        }
        _ = fcntl(fileDescriptor, F_SETFL, fcntl(fileDescriptor, F_GETFL) | O_NONBLOCK)
    }

    /// What one call to ``accept(refused:)`` found.
    enum Accepted {
        case connection(Int32)
        /// Nothing is pending.
        case none
        /// The process or the system is out of file descriptors (`errno`): the connection waits
        /// in the backlog until a descriptor is free.
        case outOfDescriptors(Int32)
    }

    /// Accepts one pending connection. A connection from another user is closed at once and
    /// reported through `refused`.
    func accept(refused: (uid_t) -> Void) -> Accepted {
        while true {
            let fd = SystemCall.acceptConnection(fileDescriptor)
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .outOfDescriptors(errno)
                default: return .none
                }
            }
            let uid = UnixAddress.peerUser(fd)
            guard uid == getuid() else {
                SystemCall.close(fd)
                refused(uid ?? uid_t.max)
                continue
            }
            return .connection(fd)
        }
    }

    /// Whether a connection waits to be accepted.
    var hasPendingConnection: Bool {
        var request = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) == 1
    }

    /// Closes the socket and removes it and its directory.
    func close() {
        if fileDescriptor >= 0 {
            SystemCall.close(fileDescriptor)
            fileDescriptor = -1
        }
        unlink(path)
        rmdir(directory)
    }

    deinit { close() }

    private static let prefix = "activity-"

    /// `TMPDIR` as an absolute path without a trailing slash: a relative one would name another
    /// place for a child that changes directory. `/tmp` when unset, or too long to leave room
    /// for the socket's name in the 108 bytes of a socket address.
    static func baseDirectory() -> String {
        guard var base = SystemCall.environment("TMPDIR"), !base.isEmpty else { return "/tmp" }
        if !base.hasPrefix("/") {
            guard let cwd = getcwd(nil, 0) else { return "/tmp" }
            defer { free(cwd) }
            base = String(cString: cwd) + "/" + base
        }
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        return base.utf8.count > 72 ? "/tmp" : base
    }

    /// Removes `activity-PID-XXXXXX` directories of this user in `base` whose process no longer
    /// exists. Only a directory holding nothing but the socket (and apt's configuration file,
    /// ``AptStatusDescriptor``) is removed.
    static func removeStaleDirectories(in base: String) {
        guard let directory = opendir(base) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix(prefix) else { continue }
            let fields = name.dropFirst(prefix.count).split(separator: "-")
            guard fields.count == 2, let pid = pid_t(fields[0]), pid > 0, pid != getpid() else { continue }
            guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
            let path = base + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else { continue }
            unlink(path + "/sink")
            unlink(path + "/" + AptStatusDescriptor.fileName)
            rmdir(path)
        }
    }
}
