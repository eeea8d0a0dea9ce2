import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `/proc` says about another process: its parent, its name, the program it runs. Every
/// answer is `nil` when the process is gone or `/proc` does not say.
enum ProcessTable {
    /// The process's command name, as `ps` shows it (at most 15 bytes).
    static func command(of pid: Int32) -> String? {
        guard let bytes = read("/proc/\(pid)/comm", limit: 512) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        let name = text.hasSuffix("\n") ? String(text.dropLast()) : text
        return name.isEmpty ? nil : name
    }

    /// The parent of `pid`: the fourth field of `/proc/PID/stat`, after the command in brackets.
    static func parent(of pid: Int32) -> Int32? {
        guard let bytes = read("/proc/\(pid)/stat", limit: 1024) else { return nil }
        let stat = String(decoding: bytes, as: UTF8.self)
        guard let end = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    /// What the process runs: the path of its program and its arguments. A fork that has not
    /// called `exec` (a shell's subshell) has its parent's.
    static func image(of pid: Int32) -> [UInt8]? {
        var program = [UInt8](repeating: 0, count: 4096)
        let length = readlink("/proc/\(pid)/exe", &program, program.count)
        guard length > 0, let arguments = read("/proc/\(pid)/cmdline", limit: 1 << 20) else { return nil }
        return program[..<length] + [0] + arguments
    }

    /// A file of the kernel's, whole, up to `limit` bytes; `nil` when it cannot be read or is empty.
    private static func read(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { SystemCall.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let count = SystemCall.read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return bytes.isEmpty ? nil : bytes
    }
}
