import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How `activity run` names a reporter in the problems its lines raise: by the process at the
/// other end of its connection, `reporter build.sh (pid 4242)`, since "line 3" of an unnamed
/// connection says nothing. `activity emit` connects once per event for the script that runs
/// it, so an emit is named by that script. Where `/proc` is missing, by the pid alone.
enum ReporterName {
    /// The name of the reporter on the connection `fd`, or `nil` when its process is unknown.
    static func of(connection fd: Int32) -> String? {
        SocketServer.peerPID(fd).map(of(process:))
    }

    static func of(process pid: Int32) -> String {
        var pid = pid
        var command = command(of: pid)
        if command == "activity", let parent = parent(of: pid), parent > 1 {
            pid = parent
            command = self.command(of: parent)
        }
        return command.map { "reporter \($0) (pid \(pid))" } ?? "reporter (pid \(pid))"
    }

    /// The process's command name, as `ps` shows it (at most 15 bytes).
    private static func command(of pid: Int32) -> String? {
        guard let text = read("/proc/\(pid)/comm") else { return nil }
        let name = text.hasSuffix("\n") ? String(text.dropLast()) : text
        return name.isEmpty ? nil : name
    }

    /// The parent of `pid`: the fourth field of `/proc/PID/stat`, after the command in brackets.
    private static func parent(of pid: Int32) -> Int32? {
        guard let stat = read("/proc/\(pid)/stat"), let end = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    /// A small file of the kernel's, whole; `nil` when it cannot be read.
    private static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { SystemCall.close(fd) }
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = SystemCall.read(fd, &bytes, bytes.count)
        guard count > 0 else { return nil }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}
