import ActivityAdapters
import ActivityPOSIX
import ActivityRendering
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An external adapter, `activity-adapt-NAME` from `PATH`: the tool's output on its standard
/// input, events and passthrough on its standard output.
///
/// It runs under the renderer plugins' rules: a process group of its own (stopping it stops what
/// it started), bounded buffers, never blocking for long. Lines it writes that are events become
/// events (top-level ones nest under the run's command); every other byte passes through as it
/// wrote it. When it dies or stops reading, the tool's output from then on passes through raw,
/// and so do the lines it was given but had not yet echoed (see ``Unechoed``), so the output is
/// never lost; the person is told once.
final class ExternalAdapter: OutputAdapter {
    /// It reads standard error, where tools print progress (Docs/adapters.md).
    let reportsOnStandardOutput = false
    struct Failure: Error {
        var message: String
    }

    let name: String
    private var pid: pid_t
    private var input: Int32
    private var output: Int32
    private let parent: ActivityID?
    private var pending: [UInt8] = []
    private var unechoed = Unechoed()
    private var dead = false
    private(set) var failureMessage: String?
    private let decoder = ActivityEventDecoder()

    init(name: String, path: String, parent: ActivityID?) throws(Failure) {
        var toAdapter: [Int32] = [-1, -1]
        var fromAdapter: [Int32] = [-1, -1]
        guard SystemCall.pipe(&toAdapter) else {
            throw Failure(message: "cannot start adapter \(name): pipe: \(SystemError.reason(errno))")
        }
        guard SystemCall.pipe(&fromAdapter) else {
            close(toAdapter[0])
            close(toAdapter[1])
            throw Failure(message: "cannot start adapter \(name): pipe: \(SystemError.reason(errno))")
        }
        let environment =
            SystemCall.environment().filter { !$0.hasPrefix("ACTIVITY_PARENT=") }
            + (parent.map { ["ACTIVITY_PARENT=\($0.rawValue)"] } ?? [])
        let spawned = Result { () throws(SystemError) in
            try ProcessSpawn.spawn(
                [path], environment: environment,
                descriptors: [.duplicate(toAdapter[0], as: 0), .duplicate(fromAdapter[1], as: 1)])
        }
        close(toAdapter[0])
        close(fromAdapter[1])
        let child: pid_t
        switch spawned {
        case .success(let pid):
            child = pid
        case .failure(let error):
            close(toAdapter[1])
            close(fromAdapter[0])
            throw Failure(message: "cannot start adapter \(name) (\(path)): \(error.reason)")
        }
        for fd in [toAdapter[1], fromAdapter[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        self.name = name
        self.path = path
        self.pid = child
        self.input = toAdapter[1]
        self.output = fromAdapter[0]
        self.parent = parent
    }

    private let path: String

    deinit {
        stop()
    }

    func feed(_ bytes: UnsafeRawBufferPointer, from stream: AdapterStream) -> [AdapterOutput] {
        guard !dead else { return [.passthrough(Array(bytes), stream)] }
        var results: [AdapterOutput] = []
        var offset = 0
        var waited = 0
        while offset < bytes.count {
            switch try? SystemCall.write(input, from: UnsafeRawBufferPointer(rebasing: bytes[offset...])) {
            case .written(let count):
                unechoed.sent(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]), stream)
                offset += count
                continue
            case .wouldBlock:
                // Its input is full: read what it wrote so far, so that it can go on.
                var fds = [
                    pollfd(fd: input, events: Int16(POLLOUT), revents: 0),
                    pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                ]
                if poll(&fds, 2, 100) == 0 { waited += 100 }
                results += drain()
                if waited < 2000 && !dead { continue }
                results += died("stopped reading its input")
            case nil:
                results += died("exited")
            }
            results.append(.passthrough(Array(bytes[offset...]), stream))
            return results
        }
        return results + drain()
    }

    func finish(_ stream: AdapterStream) -> [AdapterOutput] { [] }

    func finish(exitStatus: Int32?, signal: String?) -> [AdapterOutput] {
        guard !dead else { return [] }
        close(input)
        input = -1
        var results: [AdapterOutput] = []
        // It has its input's end; give it a bounded time to write the rest and exit.
        let deadline = SystemClock.monotonicSeconds() + 5
        while output >= 0 && SystemClock.monotonicSeconds() < deadline {
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, 100)
            results += drain()
        }
        if !pending.isEmpty { results += line(pending) }
        pending = []
        // Lines it never echoed were its progress if it ended well; if it crashed, they may be
        // output it had read and not yet written.
        if !stop() {
            dead = true
            let message = "adapter \(name) failed; the output it had not passed on follows unadapted"
            results.append(.event(.log(.init(message: message, level: .warning))))
            results += unechoed.takeAll()
        }
        return results
    }

    /// Reads what the adapter wrote: complete lines are events or passthrough.
    private func drain() -> [AdapterOutput] {
        guard output >= 0 else { return [] }
        var results: [AdapterOutput] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            switch try? SystemCall.read(output, into: &buffer) {
            case .bytes(let count):
                for byte in buffer[..<count] {
                    pending.append(byte)
                    if byte == 0x0A || pending.count >= AdapterPipeline.maxLineBytes {
                        results += line(pending)
                        pending.removeAll(keepingCapacity: true)
                    }
                }
            case .wouldBlock:
                return results
            case .endOfFile, nil:
                close(output)
                output = -1
                if input >= 0 { results += died("closed its output") }
                return results
            }
        }
    }

    private func line(_ bytes: [UInt8]) -> [AdapterOutput] {
        let content = bytes.last == 0x0A ? bytes.dropLast() : bytes[...]
        guard case .event(var event) = decoder.decode(content) else {
            unechoed.echoed(bytes)
            return [.passthrough(bytes, .standardOutput)]
        }
        if case .begin(var begin) = event, begin.parent == nil {
            begin.parent = parent
            event = .begin(begin)
        }
        if case .end(let end) = event, end.status == .failure, failureMessage == nil {
            failureMessage = end.error ?? end.message
        }
        return [.event(event)]
    }

    private func died(_ how: String) -> [AdapterOutput] {
        guard !dead else { return [] }
        dead = true
        _ = stop()
        let message = "adapter \(name) \(how); the output passes through unadapted"
        return [.event(.log(.init(message: message, level: .warning)))] + unechoed.takeAll()
    }

    /// Closes its pipes and ends its process group: at once when it is done, else after a moment.
    /// Returns whether it had exited with status 0 by itself.
    @discardableResult
    private func stop() -> Bool {
        if input >= 0 { close(input) }
        if output >= 0 { close(output) }
        input = -1
        output = -1
        guard pid > 0 else { return true }
        var status: Int32 = 0
        var waited = 0
        var exited = false
        while waited < 100 {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                exited = true
                break
            }
            if result < 0 && errno != EINTR { break }
            SystemClock.sleep(seconds: 0.01)
            waited += 1
        }
        kill(-pid, SIGKILL)
        if !exited { _ = waitpid(pid, &status, 0) }
        pid = -1
        return exited && ChildProcess.exitCode(status) == 0
    }
}
