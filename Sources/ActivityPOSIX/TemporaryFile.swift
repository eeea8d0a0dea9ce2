#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file of this process's own in `TMPDIR` (else `/tmp`), open for reading and writing and
/// closed on exec, and unlinked at once: it takes no name anyone sees, and its space is given
/// back when it is closed, however the process ends.
package enum TemporaryFile {
    /// A new such file, its name starting `prefix` while it has one.
    package static func make(prefix: String) -> Result<Int32, SystemError> {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/" + prefix + "-XXXXXX").utf8CString)
        #if canImport(Glibc) || canImport(Musl)
            let fd = template.withUnsafeMutableBufferPointer { makeTemporaryWithFlags($0.baseAddress!, O_CLOEXEC) }
            guard fd >= 0 else { return .failure(SystemError("mkostemp")) }
        #else
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { return .failure(SystemError("mkstemp")) }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #endif
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return .success(fd)
    }
}

#if canImport(Glibc) || canImport(Musl)
    /// `mkostemp(3)`, close-on-exec from the start (no child spawned meanwhile inherits it),
    /// which the Glibc module does not import.
    @_silgen_name("mkostemp")
    func makeTemporaryWithFlags(_ template: UnsafeMutablePointer<CChar>, _ flags: Int32) -> Int32
#endif
