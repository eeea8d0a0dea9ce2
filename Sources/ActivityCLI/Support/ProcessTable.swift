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

    /// The parent of `pid`: the fourth field of `/proc/PID/stat`.
    static func parent(of pid: Int32) -> Int32? {
        guard let fields = statusFields(of: pid), fields.count > 1 else { return nil }
        return Int32(fields[1])
    }

    /// The fields of `/proc/PID/stat` from the third on (the state, the parent, the group, the
    /// session, …): those after the command name in parentheses, which may itself hold spaces
    /// and parentheses (the last `)` ends it).
    static func statusFields(of pid: Int32) -> [Substring]? {
        guard pid > 0, let bytes = read("/proc/\(pid)/stat", limit: 1024) else { return nil }
        let stat = String(decoding: bytes, as: UTF8.self)
        guard let end = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: end)...].split(separator: " ")
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
        guard let bytes = try? SystemCall.readToEnd(fd, limit: limit), !bytes.isEmpty else { return nil }
        return bytes
    }
}
