import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What `activity run` costs an output-heavy command on a terminal: the command on a
/// pseudo-terminal of 100 × 30 whose master the benchmark reads as fast as it can (as a fast
/// terminal emulator would), bare and under `activity run`, in the same run; the figure is the
/// ratio of the two wall times.
enum TerminalRunBenchmarks {
    static func figures(settings: BenchSettings) throws -> [Figure] {
        let activity = try CommandBenchmarks.executable()
        let lines = settings.iterations(300_000)
        let text = FileManager.default.temporaryDirectory.appending(path: "activity-bench-\(getpid()).txt").path
        defer { try? FileManager.default.removeItem(atPath: text) }
        let size = try writeText(to: text, bytes: settings.iterations(40_000_000))
        let workloads: [(name: String, command: [String])] = [
            ("seq 1 \(lines)", ["/usr/bin/seq", "1", "\(lines)"]),
            ("cat of \(size / 1_000_000) MB of text", ["/bin/cat", text]),
        ]
        var figures = try workloads.map { workload in
            var bare: [Double] = []
            var run: [Double] = []
            var cpu = (bare: [Double](), run: [Double]())
            let ratios = try repeated(settings) {
                let alone = try wallTime(onTerminal: workload.command)
                let wrapped = try wallTime(onTerminal: [activity, "run", "--"] + workload.command)
                bare.append(alone.wall)
                run.append(wrapped.wall)
                cpu.bare.append(alone.cpu)
                cpu.run.append(wrapped.cpu)
                return wrapped.wall / alone.wall
            }
            let median = { (values: [Double]) in values.sorted()[values.count / 2] }
            // The processor time of the command (and of `activity` with it) varies far less than
            // the wall time on a machine that others load: it tells what `run` costs even then.
            return Figure(
                name: "activity run -- \(workload.name), on a pty read at once: time over bare", unit: "×",
                runs: ratios, target: 1.25, better: .lower, anchor: "issue 28: 6.6× for seq, 6.9× for cat before",
                note: String(
                    format: "median bare %.3f s, under run %.3f s; processor time bare %.3f s, under run %.3f s",
                    median(bare), median(run), median(cpu.bare), median(cpu.run)))
        }
        if let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first(where: FileManager.default.isExecutableFile) {
            let workload = workloads[0]
            var bare: [Double] = []
            var run: [Double] = []
            let ratios = try repeated(settings) {
                let alone = try wallTime(inTmux: tmux, workload.command)
                let wrapped = try wallTime(inTmux: tmux, [activity, "run", "--"] + workload.command)
                bare.append(alone)
                run.append(wrapped)
                return wrapped / alone
            }
            let median = { (values: [Double]) in values.sorted()[values.count / 2] }
            figures.append(
                Figure(
                    name: "activity run -- \(workload.name), in a 100 × 30 tmux pane: time over bare", unit: "×",
                    runs: ratios, target: 1.25, better: .lower, anchor: "issue 28: 6.6× in tmux before",
                    note: String(format: "median bare %.3f s, under run %.3f s", median(bare), median(run))))
        }
        return figures
    }

    /// The wall time of `command` in a detached tmux pane of 100 × 30 (a server of its own), from
    /// the start of the server until it has ended with the command: tmux reads the pane as a
    /// terminal does, and parses what it reads, so the command cannot get further ahead of it
    /// than the pseudo-terminal holds. (Foundation's `Process` waits for the server too: it
    /// inherits the client's descriptors and holds them until its session ends.)
    static func wallTime(inTmux tmux: String, _ command: [String]) throws -> Double {
        let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let script = "ACTIVITY_HISTORY=off TERM=tmux-256color \(quoted)"
        let start = nowNanoseconds()
        let server = try Process.run(
            URL(filePath: tmux),
            arguments: [
                "-L", "activity-bench-\(getpid())", "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30",
                script,
            ])
        server.waitUntilExit()
        return Double(nowNanoseconds() - start) / 1e9
    }

    /// Writes lines of 60 to 100 columns of text, `bytes` in all (rounded to a line); returns the
    /// size written.
    private static func writeText(to path: String, bytes: Int) throws -> Int {
        var text: [UInt8] = []
        text.reserveCapacity(bytes + 128)
        var line = 0
        let words = "the quick brown fox jumps over the lazy dog while the build goes on and on"
        while text.count < bytes {
            text += Array("\(line) \(words.prefix(50 + line % 40))\n".utf8)
            line += 1
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(text)) else {
            throw BenchError("cannot write \(path)")
        }
        return text.count
    }

    /// The wall time of `command` from spawn until it has exited and its terminal's output is
    /// read to its end: on a new pseudo-terminal of 100 × 30, as the leader of its own session
    /// (the terminal is its controlling one, in the foreground), `TERM=xterm-256color`; and the
    /// processor time (user and system) of the command and the children it waited for.
    static func wallTime(onTerminal command: [String]) throws -> (wall: Double, cpu: Double) {
        // Linux's pty multiplexer: unlocked and named with its two ioctls (TIOCSPTLCK, TIOCGPTN).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw BenchError("/dev/ptmx: \(String(cString: strerror(errno)))")
        }
        defer { close(master) }
        let slave = "/dev/pts/\(number)"
        var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // POSIX_SPAWN_SETSID: a session of its own, so the terminal opened next is its controlling one.
        posix_spawnattr_setflags(&attributes, Int16(0x80))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        posix_spawn_file_actions_addclose(&actions, master)

        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["ACTIVITY_HISTORY"] = "off"
        for key in ["CI", "NO_COLOR", "COLUMNS", "LINES", "ACTIVITY_SINK", "ACTIVITY_PARENT"] { environment[key] = nil }
        let arguments = command.map { strdup($0) } + [nil]
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            arguments.forEach { free($0) }
            variables.forEach { free($0) }
        }
        let start = nowNanoseconds()
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, &attributes, arguments, variables)
        guard spawned == 0 else { throw BenchError("posix_spawn \(command[0]): \(String(cString: strerror(spawned)))") }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var exited = false
        var open = true
        var usage = rusage()
        while open || !exited {
            if open {
                var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                if poll(&poller, 1, 50) > 0 {
                    let count = read(master, &buffer, buffer.count)
                    // EIO: every holder of the slave has closed it.
                    if count <= 0, count == 0 || errno != EINTR { open = false }
                }
            } else {
                usleep(1000)
            }
            if !exited {
                var status: Int32 = 0
                exited = wait4(pid, &status, WNOHANG, &usage) == pid
            }
        }
        let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return (Double(nowNanoseconds() - start) / 1e9, seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }
}
