#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C library's calls under names of their own, for code inside types that have a method of
/// the same name (`write`, `close`, `accept`): one place that knows which module holds them, so
/// the rest of the command compiles against Glibc, Musl and Darwin alike.
enum SystemCall {
    static func write(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(fd, bytes, count)
        #elseif canImport(Musl)
            Musl.write(fd, bytes, count)
        #else
            Darwin.write(fd, bytes, count)
        #endif
    }

    @discardableResult
    static func close(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(fd)
        #elseif canImport(Musl)
            Musl.close(fd)
        #else
            Darwin.close(fd)
        #endif
    }

    static func open(_ path: String, _ flags: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.open(path, flags)
        #elseif canImport(Musl)
            Musl.open(path, flags)
        #else
            Darwin.open(path, flags)
        #endif
    }

    static func accept(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.accept(fd, nil, nil)
        #elseif canImport(Musl)
            Musl.accept(fd, nil, nil)
        #else
            Darwin.accept(fd, nil, nil)
        #endif
    }

    static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
            Glibc.connect(fd, address, length)
        #elseif canImport(Musl)
            Musl.connect(fd, address, length)
        #else
            Darwin.connect(fd, address, length)
        #endif
    }

    static func send(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
        #if canImport(Glibc)
            Glibc.send(fd, bytes, count, flags)
        #elseif canImport(Musl)
            Musl.send(fd, bytes, count, flags)
        #else
            Darwin.send(fd, bytes, count, flags)
        #endif
    }

    /// Puts back the default action for `signal`.
    static func resetToDefault(_ signal: Int32) {
        #if canImport(Glibc)
            _ = Glibc.signal(signal, SIG_DFL)
        #elseif canImport(Musl)
            _ = Musl.signal(signal, SIG_DFL)
        #else
            _ = Darwin.signal(signal, SIG_DFL)
        #endif
    }
}
