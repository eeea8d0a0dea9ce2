#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the system says about another process: its command name, its place (parent, group,
/// session) and the program it runs. Linux reads `/proc/PID/…`; Darwin asks `sysctl(KERN_PROC)`
/// (written for Darwin, not run there: Docs/architecture.md, "Platforms"). Every answer is `nil`
/// when the process is gone or the system does not say. Read each time it is asked, so a pid the
/// kernel gave to another process since is answered for that process.
package enum ProcessTable {
    /// A process's place among the others.
    package struct Place: Equatable, Sendable {
        package var parent: pid_t
        package var group: pid_t
        package var session: pid_t

        package init(parent: pid_t, group: pid_t, session: pid_t) {
            self.parent = parent
            self.group = group
            self.session = session
        }
    }

    /// The process's command name, as `ps` shows it (at most 15 bytes on Linux, 16 on Darwin).
    package static func command(of pid: pid_t) -> String? {
        guard pid > 0 else { return nil }
        #if os(Linux)
            guard let bytes = kernelFile("/proc/\(pid)/comm", limit: 512) else { return nil }
            let text = String(decoding: bytes, as: UTF8.self)
            let name = text.hasSuffix("\n") ? String(text.dropLast()) : text
        #else
            guard var info = kernelProcess(pid) else { return nil }
            let name = withUnsafeBytes(of: &info.kp_proc.p_comm) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
        #endif
        return name.isEmpty ? nil : name
    }

    /// The parent of `pid`.
    package static func parent(of pid: pid_t) -> pid_t? { place(of: pid)?.parent }

    /// The parent, the process group and the session of `pid`.
    package static func place(of pid: pid_t) -> Place? {
        guard pid > 0 else { return nil }
        #if os(Linux)
            // Fields 4, 5 and 6 of /proc/PID/stat: those after the command name in parentheses,
            // which may itself hold spaces and parentheses (the last `)` ends it).
            guard let bytes = kernelFile("/proc/\(pid)/stat", limit: 1024) else { return nil }
            let stat = String(decoding: bytes, as: UTF8.self)
            guard let end = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            guard fields.count >= 4, let parent = pid_t(fields[1]), let group = pid_t(fields[2]),
                let session = pid_t(fields[3])
            else { return nil }
            return Place(parent: parent, group: group, session: session)
        #else
            guard let info = kernelProcess(pid) else { return nil }
            let session = getsid(pid)
            guard session >= 0 else { return nil }
            return Place(parent: info.kp_eproc.e_ppid, group: info.kp_eproc.e_pgid, session: session)
        #endif
    }

    /// What the process runs: the path of its program and its arguments, each ending in a NUL.
    /// A fork that has not called `exec` (a shell's subshell) has its parent's.
    package static func image(of pid: pid_t) -> [UInt8]? {
        guard pid > 0 else { return nil }
        #if os(Linux)
            var program = [UInt8](repeating: 0, count: 4096)
            let length = readlink("/proc/\(pid)/exe", &program, program.count)
            guard length > 0, let arguments = kernelFile("/proc/\(pid)/cmdline", limit: 1 << 20) else { return nil }
            return program[..<length] + [0] + arguments
        #else
            // KERN_PROCARGS2: the argument count, the program's path, NULs, then the arguments
            // (and the environment, left out here).
            var name: [Int32] = [CTL_KERN, KERN_PROCARGS2, pid]
            var size = 0
            guard sysctl(&name, 3, nil, &size, nil, 0) == 0, size > MemoryLayout<Int32>.size else { return nil }
            var bytes = [UInt8](repeating: 0, count: size)
            guard sysctl(&name, 3, &bytes, &size, nil, 0) == 0, size > MemoryLayout<Int32>.size else { return nil }
            let count = bytes.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
            var index = MemoryLayout<Int32>.size
            guard let pathEnd = bytes[index..<size].firstIndex(of: 0) else { return nil }
            var image = Array(bytes[index...pathEnd])
            index = bytes[pathEnd..<size].firstIndex { $0 != 0 } ?? size
            for _ in 0..<max(count, 0) {
                guard index < size, let end = bytes[index..<size].firstIndex(of: 0) else { break }
                image += bytes[index...end]
                index = end + 1
            }
            return image
        #endif
    }

    #if os(Linux)
        /// A file of the kernel's, whole, up to `limit` bytes; `nil` when it cannot be read or is empty.
        private static func kernelFile(_ path: String, limit: Int) -> [UInt8]? {
            let fd = SystemCall.open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { SystemCall.close(fd) }
            guard let bytes = try? SystemCall.readToEnd(fd, limit: limit), !bytes.isEmpty else { return nil }
            return bytes
        }
    #else
        /// `sysctl(CTL_KERN, KERN_PROC, KERN_PROC_PID, pid)`: the kernel's record of one process.
        private static func kernelProcess(_ pid: pid_t) -> kinfo_proc? {
            var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
            var info = kinfo_proc()
            var size = MemoryLayout<kinfo_proc>.stride
            guard sysctl(&name, 4, &info, &size, nil, 0) == 0, size > 0 else { return nil }
            return info
        }
    #endif
}
