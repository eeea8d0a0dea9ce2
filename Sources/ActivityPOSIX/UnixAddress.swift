#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `sockaddr_un` for a path, and who is at the other end of a Unix socket: the parts of Unix
/// sockets that Linux and Darwin spell differently (`sun_len`; `SO_PEERCRED` against
/// `getpeereid` and `LOCAL_PEERPID`).
package struct UnixAddress {
    private var storage = sockaddr_un()

    /// `nil` when the path is empty or does not fit in `sun_path`.
    package init?(path: String) {
        storage.sun_family = sa_family_t(AF_UNIX)
        #if canImport(Darwin)
            storage.sun_len = UInt8(MemoryLayout<sockaddr_un>.size)
        #endif
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }

    package mutating func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        return withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// The user of the process at the other end of the connected Unix socket `fd`, as the kernel
    /// recorded it at `connect`.
    package static func peerUser(_ fd: Int32) -> uid_t? {
        #if os(Linux)
            return peerCredentials(fd)?.uid
        #elseif canImport(Darwin)
            var user = uid_t()
            var group = gid_t()
            return getpeereid(fd, &user, &group) == 0 ? user : nil
        #else
            return nil
        #endif
    }

    /// The pid of the process at the other end of the connected Unix socket `fd`, as the kernel
    /// recorded it at `connect`: `SO_PEERCRED` on Linux, `LOCAL_PEERPID` on Darwin.
    package static func peerProcess(_ fd: Int32) -> pid_t? {
        #if os(Linux)
            guard let pid = peerCredentials(fd)?.pid, pid > 0 else { return nil }
            return pid
        #elseif canImport(Darwin)
            var pid = pid_t()
            var length = socklen_t(MemoryLayout<pid_t>.size)
            guard getsockopt(fd, SOL_LOCAL, LOCAL_PEERPID, &pid, &length) == 0, pid > 0 else { return nil }
            return pid
        #else
            return nil
        #endif
    }

    #if os(Linux)
        private static func peerCredentials(_ fd: Int32) -> (pid: Int32, uid: UInt32, gid: UInt32)? {
            // struct ucred { pid_t pid; uid_t uid; gid_t gid; }
            var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
            var length = socklen_t(MemoryLayout.size(ofValue: credentials))
            guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
            return credentials
        }
    #endif
}
