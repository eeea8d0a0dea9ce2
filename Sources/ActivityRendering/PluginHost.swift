import ActivityPOSIX
import ActivityTerminal
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs an external renderer, `activity-render-NAME` from `PATH`, and feeds it the normalized
/// JSON lines on its standard input.
///
/// Any program can render: it reads protocol v1 lines (every event with `ts`, parents resolved,
/// `abandoned` ends made up) from standard input until end of file, then exits. Its standard
/// input is a Unix stream socket rather than a pipe, so that a plugin that has gone away never
/// raises SIGPIPE here. Its standard error is the session's own. Its standard output is a pipe
/// the host reads on a thread of its own: a whole line `{"v":1,"type":"cancel","id":…}` asks the
/// producer to cancel that activity (``ActivityStore/requestCancel(_:)``, at the next event or
/// tick), everything else goes on to the session's standard output byte for byte.
///
/// The host never lets a plugin hurt the display: writes do not block for long (progress events
/// are dropped while the plugin is slow, other events wait at most two seconds), and a plugin
/// that dies is noticed, reported once through ``takeNotices()``, and left out from then on.
/// ``finish(_:now:)`` closes the plugin's input and waits up to ``exitTimeout`` seconds for it
/// to exit, then terminates it.
///
/// ```swift
/// let plugin = try PluginHost(name: "notify", environment: ["PATH": "/usr/local/bin:/usr/bin"])
/// ```
public final class PluginHost: ActivityRenderer {
    /// The plugin's name, as in `--plugin NAME`.
    public let name: String
    /// The executable that runs.
    public let executablePath: String
    /// Whether the plugin is still being fed.
    public private(set) var isRunning = true
    /// How long ``finish(_:now:)`` waits for the plugin to exit after its input is closed, before
    /// it is sent SIGTERM (and, a second later, SIGKILL).
    public var exitTimeout: Double = 5
    /// Progress events dropped because the plugin read too slowly.
    public private(set) var droppedEvents = 0

    private var pid: pid_t
    private var socket: Int32
    private var exitDescription: String?
    private var notices: [String] = []
    private let encoder = ActivityEventEncoder()
    private var line: [UInt8] = []
    private var relay: PluginOutputRelay?

    /// Finds `activity-render-NAME` on `environment["PATH"]` and starts it.
    ///
    /// - Throws: ``RenderError`` when the name is not a plain word, no such executable is on
    ///   `PATH`, or it cannot be started.
    public init(name: String, environment: [String: String]) throws(RenderError) {
        guard !name.isEmpty,
            name.utf8.allSatisfy({ ActivityID.isValid(CollectionOfOne($0)) && $0 != UInt8(ascii: "/") })
        else {
            throw .pluginName(TerminalSanitizer.escaped(name))
        }
        let program = "activity-render-" + name
        guard let path = ProcessSpawn.executable(program, searching: environment["PATH"] ?? ProcessSpawn.defaultPath)
        else {
            throw .pluginNotFound(name: name, program: program)
        }
        var pair: [Int32] = [-1, -1]
        guard SystemCall.unixStreamSocketPair(&pair) else {
            throw .pluginFailed(name: name, reason: "socketpair: \(SystemError.reason(errno))")
        }
        // The plugin only reads; it must not be able to write events back.
        shutdown(pair[1], Int32(SHUT_WR))
        shutdown(pair[0], Int32(SHUT_RD))
        var bufferSize: Int32 = 1 << 20
        setsockopt(pair[0], SOL_SOCKET, SO_SNDBUF, &bufferSize, socklen_t(MemoryLayout<Int32>.size))
        let flags = fcntl(pair[0], F_GETFL)
        _ = fcntl(pair[0], F_SETFL, flags | O_NONBLOCK)

        var output: [Int32] = [-1, -1]
        // Close-on-exec from the start: a child another thread spawns meanwhile must not hold the
        // write end, or the relay would never see the plugin's output end.
        guard SystemCall.pipe(&output) else {
            close(pair[0])
            close(pair[1])
            throw .pluginFailed(name: name, reason: "pipe: \(SystemError.reason(errno))")
        }
        let spawned = Result { () throws(SystemError) in
            try ProcessSpawn.spawn(
                [path], environment: environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" },
                descriptors: [.duplicate(pair[1], as: 0), .duplicate(output[1], as: 1)])
        }
        close(pair[1])
        close(output[1])
        let child: pid_t
        switch spawned {
        case .success(let pid):
            child = pid
        case .failure(let error):
            close(pair[0])
            close(output[0])
            throw .pluginFailed(name: name, reason: "\(path): \(error.reason)")
        }
        relay = PluginOutputRelay(input: output[0])
        if relay == nil { close(output[0]) }
        self.name = name
        self.executablePath = path
        self.pid = child
        self.socket = pair[0]
    }

    deinit {
        stop(wait: 0.5)
    }

    /// The messages about the plugin's death not yet shown; each is returned once.
    public func takeNotices() -> [String] {
        defer { notices.removeAll() }
        return notices
    }

    public var preferredTickInterval: Double? { isRunning ? 0.5 : nil }

    public func render(_ update: ActivityUpdate, in store: ActivityStore) {
        requestCancels(in: store)
        guard isRunning else { return }
        line.removeAll(keepingCapacity: true)
        encoder.encode(update.event(in: store), into: &line)
        deliver(line, mayDrop: update.kind == .progress)
    }

    public func tick(_ store: ActivityStore, now: Double) {
        requestCancels(in: store)
        guard isRunning else { return }
        if reap(block: false) { died() }
    }

    public func finish(_ store: ActivityStore, now: Double) {
        guard pid > 0 else { return }
        if isRunning, reap(block: false) {
            died()
            return
        }
        let wasRunning = isRunning
        stop(wait: exitTimeout)
        if wasRunning, let how = exitDescription, how != "exited with status 0" {
            notices.append("plugin \"\(name)\" \(how) at the end of the stream")
        }
    }

    /// Passes on the cancels the plugin has written. The store sends each only for an activity
    /// that is running and cancellable, and where producers can be reached; the router sends one
    /// cancel per activity however often the plugin asks.
    private func requestCancels(in store: ActivityStore) {
        for id in relay?.takeCancels() ?? [] { _ = store.requestCancel(id) }
    }

    // MARK: - Process

    private func deliver(_ bytes: [UInt8], mayDrop: Bool) {
        let fd = socket
        var waited = 0
        var dropped = false
        var stalledOut = false
        let error = bytes.withUnsafeBytes { raw in
            SystemCall.writeAll(fd, raw, socket: true) { _, written in
                // A progress the plugin has no room for is dropped whole, never cut.
                if mayDrop && written == 0 {
                    dropped = true
                    return false
                }
                if !SystemCall.waitUntilWritable(fd, milliseconds: 100) {
                    waited += 100
                    stalledOut = waited >= 2000
                }
                return !stalledOut
            }
        }
        if error == 0 { return }
        if dropped {
            droppedEvents += 1
        } else if stalledOut {
            notices.append("plugin \"\(name)\" is not reading its input; rendering goes on without it")
            stop(wait: 0)
        } else {
            _ = reap(block: false) || reap(wait: 0.2)
            died()
        }
    }

    private func died() {
        guard isRunning else { return }
        isRunning = false
        close(socket)
        socket = -1
        let how = exitDescription ?? "stopped reading its input"
        notices.append("plugin \"\(name)\" \(how); rendering goes on without it")
    }

    /// Closes the plugin's input and waits up to `wait` seconds before terminating it.
    private func stop(wait: Double) {
        if socket >= 0 {
            close(socket)
            socket = -1
        }
        isRunning = false
        // What the plugin wrote last still goes out, unless a process of its own escaped the
        // group and holds the pipe.
        defer { relay?.wait(seconds: 1) }
        guard pid > 0 else { return }
        // The plugin leads its own process group: what it started goes with it.
        let group = pid
        defer { kill(-group, SIGKILL) }
        if reap(wait: wait) { return }
        kill(-group, SIGTERM)
        if reap(wait: 1) { return }
        kill(-group, SIGKILL)
        _ = reap(block: true)
    }

    /// Collects the child's exit status if it has exited; `true` when it is gone.
    private func reap(block: Bool) -> Bool {
        guard pid > 0 else { return true }
        var status: Int32 = 0
        let result = waitpid(pid, &status, block ? 0 : WNOHANG)
        guard result == pid || (result < 0 && errno == ECHILD) else { return false }
        if result == pid {
            let signal = status & 0x7F
            exitDescription =
                signal == 0 ? "exited with status \((status >> 8) & 0xFF)" : "was killed by signal \(signal)"
        }
        pid = -1
        return true
    }

    private func reap(wait seconds: Double) -> Bool {
        var left = Int(saturating: seconds * 100)
        while !reap(block: false) {
            if left <= 0 { return false }
            SystemClock.sleep(seconds: 0.01)
            left -= 1
        }
        return true
    }
}
