#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#else
    #error("ActivityPOSIX is not supported on this platform yet: it needs Glibc, Musl or Darwin")
#endif

/// What Linux and Darwin spell differently: sockets that are close-on-exec and never raise
/// `SIGPIPE`, the `SIGPIPE` a failed write left pending, and the environment. Linux has flags for
/// the first (`SOCK_CLOEXEC`, `MSG_NOSIGNAL`); Darwin sets them on the socket just after making
/// it (`FD_CLOEXEC`, `SO_NOSIGPIPE`), so a child spawned by another thread in between can
/// inherit it there.
extension SystemCall {
    /// `SOCK_STREAM` as `socket(2)` takes it (an enum in Glibc, a macro elsewhere).
    package static var streamType: Int32 {
        #if canImport(Glibc)
            Int32(SOCK_STREAM.rawValue)
        #else
            SOCK_STREAM
        #endif
    }

    /// A new socket, close-on-exec, that never raises `SIGPIPE`; non-blocking if asked. -1 and
    /// `errno` on failure.
    package static func openSocket(
        domain: Int32, type: Int32, protocol: Int32 = 0, nonBlocking: Bool = false
    )
        -> Int32
    {
        #if canImport(Glibc)
            let flags = Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
            return socket(domain, type | flags, `protocol`)
        #elseif canImport(Musl)
            let flags = Int32(SOCK_CLOEXEC) | (nonBlocking ? Int32(SOCK_NONBLOCK) : 0)
            return socket(domain, type | flags, `protocol`)
        #else
            let fd = socket(domain, type, `protocol`)
            if fd >= 0 { configureSocket(fd, nonBlocking: nonBlocking) }
            return fd
        #endif
    }

    /// A new Unix stream socket, close-on-exec, that never raises `SIGPIPE`.
    package static func unixStreamSocket() -> Int32 {
        openSocket(domain: AF_UNIX, type: streamType)
    }

    /// A connected pair of Unix stream sockets, both close-on-exec and never raising `SIGPIPE`.
    package static func unixStreamSocketPair(_ pair: inout [Int32]) -> Bool {
        pair = [-1, -1]
        #if canImport(Glibc)
            return socketpair(AF_UNIX, streamType | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0
        #elseif canImport(Musl)
            return socketpair(AF_UNIX, streamType | Int32(SOCK_CLOEXEC), 0, &pair) == 0
        #else
            guard socketpair(AF_UNIX, streamType, 0, &pair) == 0 else { return false }
            for fd in pair { configureSocket(fd, nonBlocking: false) }
            return true
        #endif
    }

    /// Accepts a connection waiting on the listening socket `fd`: the new socket is close-on-exec
    /// and non-blocking from the start on Linux (`accept4`); Darwin sets both just after, and the
    /// socket never raises `SIGPIPE` there (`SO_NOSIGPIPE`). -1 and `errno` on failure.
    package static func acceptConnection(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
            return acceptWithFlags(fd, nil, nil, Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
        #elseif canImport(Musl)
            return acceptWithFlags(fd, nil, nil, Int32(SOCK_CLOEXEC) | Int32(SOCK_NONBLOCK))
        #else
            let connection = accept(fd)
            if connection >= 0 { configureSocket(connection, nonBlocking: true) }
            return connection
        #endif
    }

    #if !os(Linux)
        private static func configureSocket(_ fd: Int32, nonBlocking: Bool) {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            if nonBlocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        }
    #endif

    /// The `send(2)` flag that keeps a write to a closed socket from raising `SIGPIPE`:
    /// `MSG_NOSIGNAL` on Linux; 0 on Darwin, where the sockets made here have `SO_NOSIGPIPE`
    /// and a socket of the caller's is written with the signal blocked (``consumePendingSIGPIPE(_:)``).
    package static var noSignal: Int32 {
        #if os(Linux)
            Int32(MSG_NOSIGNAL)
        #else
            0
        #endif
    }

    /// Whether ``noSignal`` keeps `send(2)` from raising `SIGPIPE` on any socket.
    package static var sendNeverSignals: Bool {
        #if os(Linux)
            true
        #else
            false
        #endif
    }

    /// Takes the `SIGPIPE` that a failed write raised for this thread (which blocks it, `set`
    /// holding it), so that it is never delivered to the process.
    package static func consumePendingSIGPIPE(_ set: inout sigset_t) {
        var pending = sigset_t()
        sigpending(&pending)
        guard sigismember(&pending, SIGPIPE) == 1 else { return }
        #if os(Linux)
            var none = timespec()
            _ = sigtimedwait(&set, nil, &none)
        #else
            // Pending, so `sigwait` returns at once (Darwin has no `sigtimedwait`).
            var signal: Int32 = 0
            _ = sigwait(&set, &signal)
        #endif
    }

    /// A variable of this process's environment, or `nil`.
    package static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Makes sure descriptors 0, 1 and 2 are open (on `/dev/null` where they were not), so that no
    /// file or socket opened later takes their place and receives output meant for a terminal.
    package static func ensureStandardDescriptors() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if opened >= 0 && opened != fd {
                dup2(opened, fd)
                close(opened)
            }
        }
    }

    /// This process's environment, as `NAME=value` strings.
    package static func environment() -> [String] {
        #if canImport(Darwin)
            var pointer = environmentOfDarwin().pointee
        #else
            var pointer = environ
        #endif
        var result: [String] = []
        while let entry = pointer.pointee {
            result.append(String(cString: entry))
            pointer += 1
        }
        return result
    }
}

#if canImport(Darwin)
    /// `_NSGetEnviron(3)`: Darwin declares no `environ` for programs to use.
    @_silgen_name("_NSGetEnviron")
    private func environmentOfDarwin() -> UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
#endif

#if os(Linux)
    /// `accept4(2)`, which the Glibc module does not import.
    @_silgen_name("accept4")
    private func acceptWithFlags(
        _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?,
        _ flags: Int32
    ) -> Int32
#endif
