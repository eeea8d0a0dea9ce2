#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What this process finds out about itself that Linux and Darwin spell differently: the program
/// it runs (to run itself again) and a description of its own of an inherited pipe.
extension SystemCall {
    /// A path of this process's program, to start it again (`run` starts its session leader so).
    /// Linux: `/proc/self/exe`, which the kernel resolves when the child executes it, so it names
    /// this program even once its file has been replaced. Darwin: `_NSGetExecutablePath(3)`,
    /// resolved by `realpath`; `nil` if it cannot be told.
    package static func executablePath() -> String? {
        #if os(Linux)
            return "/proc/self/exe"
        #elseif canImport(Darwin)
            var size: UInt32 = 0
            _ = executablePathOfDarwin(nil, &size)
            var path = [CChar](repeating: 0, count: Int(size) + 1)
            guard executablePathOfDarwin(&path, &size) == 0 else { return nil }
            var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let found = realpath(path, &resolved) != nil ? resolved : path
            return String(decoding: found.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
            return nil
        #endif
    }

    /// Makes this process write no core file when a signal kills it (`RLIMIT_CORE` of 0): for a
    /// process that dies by the signal its child died of, whose core is the child's to write.
    package static func disableCoreFiles() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        #if canImport(Glibc)
            setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        #else
            setrlimit(RLIMIT_CORE, &none)
        #endif
    }

    /// A new open file description of the pipe (or file) `fd` holds, read-only and with `flags`
    /// of its own (`O_NONBLOCK`), so that the caller's description keeps its flags: `-1` and
    /// `errno` on failure. Linux opens `/proc/self/fd/N`; Darwin has no such path, so there it
    /// fails with `ENOTSUP` ("not available on this platform").
    package static func openOwnDescription(of fd: Int32, flags: Int32) -> Int32 {
        #if os(Linux)
            return open("/proc/self/fd/\(fd)", O_RDONLY | O_CLOEXEC | flags, 0)
        #else
            errno = ENOTSUP
            return -1
        #endif
    }
}

#if canImport(Darwin)
    /// `_NSGetExecutablePath(3)` of `<mach-o/dyld.h>`, which the Darwin module does not import.
    @_silgen_name("_NSGetExecutablePath")
    private func executablePathOfDarwin(
        _ buffer: UnsafeMutablePointer<CChar>?, _ size: UnsafeMutablePointer<UInt32>
    )
        -> Int32
#endif
