import ActivityWire
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Figures of the `activity` command itself, measured from outside as a user sees it.
enum CommandBenchmarks {
    /// The `activity` executable built beside this benchmark.
    static func executable() throws -> String {
        let path = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appending(path: "activity").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError("\(path) is missing: build it with `swift build -c release --product activity`")
        }
        return path
    }

    /// Wall time of `activity --version`, from spawn to exit: the `activity` beside the benchmark
    /// (as the installed build, when the benchmark runs from a `--static-swift-stdlib` build), and
    /// a default `swift build -c release` when one is found (`ACTIVITY_DEFAULT_BUILD`, or
    /// `.build/default/release/activity` from `swift build -c release --scratch-path .build/default`).
    static func startup(settings: BenchSettings) throws -> [Figure] {
        let activity = try executable()
        var builds = [(activity, isStatic(activity) ? "static stdlib, as installed" : "dynamic stdlib")]
        let defaultBuild =
            ProcessInfo.processInfo.environment["ACTIVITY_DEFAULT_BUILD"] ?? ".build/default/release/activity"
        if FileManager.default.isExecutableFile(atPath: defaultBuild), !isStatic(defaultBuild) {
            builds.append((defaultBuild, "default swift build -c release"))
        }
        let launches = max(5, settings.iterations(200))
        return try builds.map { path, kind in
            let runs = try repeated(settings) {
                var samples: [Double] = []
                for _ in 0..<launches {
                    let start = nowNanoseconds()
                    let child = try Child(path, ["--version"], stdin: nil)
                    _ = try child.wait()
                    samples.append(Double(nowNanoseconds() - start) / 1e6)
                }
                return samples.sorted()[samples.count / 2]
            }
            return Figure(
                name: "activity --version start-up, \(kind)", unit: "ms", runs: runs, target: 5, better: .lower,
                anchor: "a Swift binary importing Foundation 5 ms; static stdlib 1.4 ms",
                note: "median of \(launches) launches per run; \(path)")
        }
    }

    /// Whether the executable carries the Swift runtime itself (no `libswiftCore.so` to load).
    private static func isStatic(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        return data.range(of: Data("libswiftCore.so".utf8)) == nil
    }

    /// `activity render --mode plain FILE`, output to /dev/null, from spawn to exit: the whole
    /// path a user's pipe takes, for the progress stream and the realistic mix.
    static func render(settings: BenchSettings) throws -> [Figure] {
        let activity = try executable()
        let events = settings.iterations(1_000_000)
        var figures: [Figure] = []
        for workload in [Workload.progress, .mix] {
            let path = FileManager.default.temporaryDirectory.appending(path: "activity-bench-\(getpid()).jsonl").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let stream = workload.stream(events: events)
            guard FileManager.default.createFile(atPath: path, contents: Data(stream)) else {
                throw BenchError("cannot write \(path)")
            }
            let count = stream.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            let runs = try repeated(settings) {
                let start = nowNanoseconds()
                let child = try Child(activity, ["render", "--mode", "plain", path], stdin: nil)
                _ = try child.wait()
                return Double(count) / (Double(nowNanoseconds() - start) / 1e9)
            }
            figures.append(
                Figure(
                    name: "activity render --mode plain, \(countText(events)) \(workload.label)", unit: "events/s",
                    runs: runs, target: workload == .progress ? 5_000_000 : 3_000_000, better: .higher,
                    anchor: "tqdm counting the same lines: Benchmarks/compare.sh",
                    note: "from a file, output to /dev/null, spawn to exit"))
            figures.append(
                Figure(
                    name: "activity render --mode plain, \(workload.label), per event", unit: "ns/event",
                    runs: runs.map { 1e9 / $0 }, target: nil, better: .lower, anchor: nil))
        }
        return figures
    }

    /// CPU time of `activity render --mode tty` while 100 activities each report progress 20 times
    /// a second (the most a coalescing producer sends), as a share of one core.
    static func rendererCPU(settings: BenchSettings) throws -> [Figure] {
        let activity = try executable()
        let seconds = settings.scale < 1 ? 2.0 : 10.0
        let runs = try (0..<max(1, settings.runs / 2)).map { _ in
            try renderWhileBusy(activity, activities: 100, seconds: seconds)
        }
        return [
            Figure(
                name: "renderer CPU, 100 busy activities, \(Int(seconds)) s", unit: "% of a core", runs: runs,
                target: 0.5,
                better: .lower, anchor: nil,
                note: "activity render --mode tty to /dev/null, 120×40, 2,000 events/s; getrusage of the child")
        ]
    }

    private static func renderWhileBusy(_ activity: String, activities: Int, seconds: Double) throws -> Double {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw BenchError("pipe() failed") }
        // Close-on-exec, so the child holds only its stdin copy and sees the end of input.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let child = try Child(
            activity, ["render", "--mode", "tty"], stdin: fds[0],
            environment: ["COLUMNS": "120", "LINES": "40", "TERM": "xterm-256color", "LANG": "C.UTF-8"])
        close(fds[0])
        let writer = fds[1]
        let encoder = ActivityEventEncoder()
        let ids = (0..<activities).map { ActivityID("bench.\($0)")! }
        var buffer: [UInt8] = []
        for (index, id) in ids.enumerated() {
            encoder.encode(
                .begin(.init(id: id, title: "Compiling module \(index)", total: 1e6, unit: "files")), into: &buffer)
        }
        let start = nowNanoseconds()
        var tick = 0
        while Double(nowNanoseconds() - start) / 1e9 < seconds {
            tick += 1
            for id in ids {
                encoder.encode(.progress(.init(id: id, completed: Double(tick * 17 % 1_000_000))), into: &buffer)
            }
            try writeAll(writer, buffer)
            buffer.removeAll(keepingCapacity: true)
            let next = start + UInt64(tick) * 50_000_000
            let now = nowNanoseconds()
            if next > now { usleep(UInt32((next - now) / 1000)) }
        }
        for id in ids { encoder.encode(.end(.init(id: id)), into: &buffer) }
        try writeAll(writer, buffer)
        close(writer)
        let usage = try child.wait()
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        return cpu / seconds * 100
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw BenchError("write to activity render failed: errno \(errno)")
            }
            offset += written
        }
    }
}

/// A child process started with `posix_spawn`, its output discarded.
struct Child {
    let pid: pid_t

    init(_ path: String, _ arguments: [String], stdin: Int32?, environment: [String: String] = [:]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin { posix_spawn_file_actions_adddup2(&actions, stdin, 0) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var env = ProcessInfo.processInfo.environment
        env["CI"] = nil
        // The figures are the renderer's, the same on every machine: not the cost of whatever
        // history file this user has (Docs/rendering.md gives that).
        env["ACTIVITY_HISTORY"] = "off"
        env.merge(environment) { $1 }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard status == 0 else { throw BenchError("cannot start \(path): \(String(cString: strerror(status)))") }
        self.pid = pid
    }

    /// Waits for the child and returns its resource usage.
    func wait() throws -> rusage {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError("wait4 failed: errno \(errno)") }
        }
        return usage
    }
}
