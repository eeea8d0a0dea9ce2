import ActivityAdapters
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs one command for `activity run`: the socket, the child, its output, and one poll(2) loop
/// on the calling thread that feeds everything to the display in arrival order.
final class Supervisor {
    let command: [String]
    let display: any Display
    /// How long connections and output pipes still open after the child exited may go on.
    let grace: Double
    /// Whether the child may take the terminal's foreground. Not under the terminal overlay: there
    /// the command's own activity blocks input and is cancellable, so the overlay swallows keys and
    /// Esc interrupts the command.
    let mayTakeTerminal: Bool

    /// Told the child's pid, so that Esc in the overlay can interrupt it.
    let cancelTarget: CancelTarget
    /// Which adapter turns the command's own progress output into events (`nil`: none).
    let adapterName: String?

    init(
        command: [String], display: any Display, grace: Double, mayTakeTerminal: Bool, cancelTarget: CancelTarget,
        adapterName: String? = nil
    ) {
        self.command = command
        self.display = display
        self.grace = grace
        self.mayTakeTerminal = mayTakeTerminal
        self.cancelTarget = cancelTarget
        self.adapterName = adapterName
    }

    /// Runs the command to its end and returns the status `activity run` exits with.
    func run() -> Int32 {
        let root = ActivityID(unchecked: POSIX.randomHex() + ".run")
        display.handle(
            .begin(
                .init(
                    id: root, title: Spawn.title(command), cancellable: !mayTakeTerminal,
                    blocking: mayTakeTerminal ? .none : .block, timestamp: POSIX.unixSeconds())))
        func fail(_ message: String, status: Int32) -> Int32 {
            display.handle(.end(.init(id: root, status: .failure, error: message, timestamp: POSIX.unixSeconds())))
            display.finish()
            Console.error(message, command: "run")
            return status
        }

        let server: SocketServer
        do throws(SocketServer.Failure) {
            server = try SocketServer()
        } catch {
            return fail(error.message, status: ExitCode.osError)
        }
        defer { server.close() }
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard POSIX.makePipe(&output) else { return fail("pipe: \(POSIX.describe(errno))", status: ExitCode.osError) }
        guard POSIX.makePipe(&errors) else {
            close(output[0])
            close(output[1])
            return fail("pipe: \(POSIX.describe(errno))", status: ExitCode.osError)
        }
        var adapter: (any OutputAdapter)?
        if let adapterName {
            do throws(AdapterChoice.Failure) {
                adapter = try AdapterChoice.make(
                    adapterName, command: command, parent: root, idPrefix: POSIX.randomHex() + ".adapt")
            } catch {
                return fail(error.message, status: ExitCode.unavailable)
            }
        }
        let environment = Spawn.environment(sink: "unix:" + server.path, parent: root.rawValue)
        let pid: pid_t
        do throws(Spawn.Failure) {
            pid = try Spawn.spawn(
                command, environment: environment, standardOutput: output[1], standardError: errors[1])
        } catch {
            [output[0], output[1], errors[0], errors[1]].forEach { close($0) }
            return fail(error.message(for: command[0]), status: error.exitStatus)
        }
        close(output[1])
        close(errors[1])
        cancelTarget.set(pid)
        let terminal: Int32? = mayTakeTerminal && isatty(0) == 1 && tcgetpgrp(0) == getpgrp() ? 0 : nil
        let child = ChildProcess(pid: pid, terminal: terminal)
        child.startWaiting()
        defer { child.release() }

        var loop = IOLoop(
            server: server, child: child, display: display, tracker: ConnectionTracker(root: root),
            output: output[0], errors: errors[0], grace: grace, adapter: adapter)
        loop.run()

        let status = child.status ?? 0
        let exitStatus: Int32
        var end = ActivityEvent.End(id: root, timestamp: POSIX.unixSeconds())
        if let code = ChildProcess.exitCode(status) {
            exitStatus = code
            if code != 0 {
                end.status = .failure
                end.error = "exit status \(code)"
            }
        } else {
            let signal = ChildProcess.termSignal(status) ?? SIGKILL
            exitStatus = ExitCode.killed(by: signal)
            end.status = .failure
            end.error = "killed by \(POSIX.signalName(signal))"
        }
        if let adapter {
            loop.showFinal(adapter.finish(exitStatus: exitStatus))
            // The tool's own message says more than its exit status.
            if let message = adapter.failureMessage, end.status == .failure {
                end.error = "\(message) (\(end.error ?? ""))"
            }
        }
        display.handle(.end(end))
        display.finish()
        return exitStatus
    }
}

/// The poll(2) loop of ``Supervisor``: new connections, their events, the child's two output
/// pipes, forwarded signals and the child's exit.
struct IOLoop {
    let server: SocketServer
    let child: ChildProcess
    let display: any Display
    var tracker: ConnectionTracker
    var output: Int32
    var errors: Int32
    let grace: Double
    /// Turns the command's progress output into events; what it does not take passes through.
    let adapter: (any OutputAdapter)?
    /// Set while no file descriptor is free for a new connection.
    private var acceptPausedUntil: Double?
    private var warnedOutOfDescriptors = false

    init(
        server: SocketServer, child: ChildProcess, display: any Display, tracker: ConnectionTracker,
        output: Int32, errors: Int32, grace: Double, adapter: (any OutputAdapter)? = nil
    ) {
        self.adapter = adapter
        self.server = server
        self.child = child
        self.display = display
        self.tracker = tracker
        self.output = output
        self.errors = errors
        self.grace = grace
    }

    mutating func run() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        var deadline: Double?
        var nextReap = 0.0
        while true {
            if deadline != nil && output < 0 && errors < 0 && tracker.isEmpty && !server.hasPendingConnection { break }
            if let deadline, POSIX.monotonicSeconds() >= deadline { break }
            var fds = [
                pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: deadline == nil ? child.exitNotice.read : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: acceptPausedUntil == nil ? server.fileDescriptor : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                pollfd(fd: errors, events: Int16(POLLIN), revents: 0),
            ]
            fds += tracker.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            var timeout = deadline.map { Int32(max(0, ($0 - POSIX.monotonicSeconds()) * 1000).rounded(.up)) } ?? -1
            if tracker.watchesProcesses { timeout = timeout < 0 ? 250 : min(timeout, 250) }
            if let until = acceptPausedUntil {
                let rest = Int32(max(0, (until - POSIX.monotonicSeconds()) * 1000).rounded(.up))
                timeout = timeout < 0 ? rest : min(timeout, rest)
            }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            let readable = Int16(POLLIN | POLLHUP | POLLERR)
            if fds[0].revents & readable != 0 {
                for signal in SignalPipe.drain() { child.forward(signal) }
            }
            if fds[1].revents & readable != 0 {
                deadline = POSIX.monotonicSeconds() + grace
            }
            if acceptPausedUntil != nil { acceptPending() }
            if fds[2].revents & readable != 0 {
                acceptPending()
                // A script calling `activity emit` again has often just seen a child die.
                if tracker.watchesProcesses { nextReap = 0 }
            }
            if fds[3].revents & readable != 0 { pump(&output, to: .standardOutput, buffer) }
            if fds[4].revents & readable != 0 { pump(&errors, to: .standardError, buffer) }
            for index in 5..<fds.count where fds[index].revents & readable != 0 {
                receive(fds[index].fd, buffer)
            }
            if tracker.watchesProcesses && POSIX.monotonicSeconds() >= nextReap {
                reapProcesses(buffer)
                nextReap = POSIX.monotonicSeconds() + 0.1
            }
        }
        // The grace is over: what is queued is read, whatever is still open is closed, and its
        // activities abandoned. Connections still in the backlog (they waited for a free
        // descriptor) are taken in turn as closing the others frees descriptors.
        repeat {
            acceptPausedUntil = nil
            reapProcesses(buffer)
            guard !tracker.isEmpty else { break }
            for fd in tracker.descriptors {
                emit(tracker.close(fd))
                close(fd)
            }
        } while server.hasPendingConnection
        emit(tracker.reapProcesses(all: true, isAlive: Self.isAlive))
        finishPipe(&output, .standardOutput)
        finishPipe(&errors, .standardError)
    }

    /// Whether a process exists (a zombie of ours counts as gone once the child has exited).
    static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// Accepts every pending connection. Out of file descriptors, the listening socket rests for
    /// a moment (its connections wait in the backlog, their reporters' writes are buffered or
    /// time out), so the loop never spins; the person is told once.
    private mutating func acceptPending() {
        if let until = acceptPausedUntil, POSIX.monotonicSeconds() < until { return }
        acceptPausedUntil = nil
        let display = self.display
        while true {
            switch server.accept(refused: { uid in
                let message = "refused a reporter of another user (uid \(uid))"
                display.handle(.log(.init(message: message, level: .warning, timestamp: POSIX.unixSeconds())))
            }) {
            case .connection(let fd):
                tracker.open(fd)
            case .none:
                return
            case .outOfDescriptors(let error):
                acceptPausedUntil = POSIX.monotonicSeconds() + Self.acceptPause
                if !warnedOutOfDescriptors {
                    warnedOutOfDescriptors = true
                    let message =
                        "cannot accept more reporters for now (\(POSIX.describe(error))); "
                        + "new ones wait until others finish"
                    display.handle(.log(.init(message: message, level: .warning, timestamp: POSIX.unixSeconds())))
                }
                return
            }
        }
    }

    /// How long the listening socket rests when no descriptor is free.
    static let acceptPause = 0.05

    /// Abandons the activities of `activity emit` callers that have exited. Whatever such a
    /// process sent before it exited is already queued on the socket, so everything queued is
    /// read first: its `end` events are never mistaken for a death.
    private mutating func reapProcesses(_ buffer: UnsafeMutableRawBufferPointer) {
        acceptPending()
        for fd in tracker.descriptors {
            var rounds = 0
            while rounds < 64 {
                rounds += 1
                let count = read(fd, buffer.baseAddress, buffer.count)
                if count > 0 {
                    emit(tracker.receive(UnsafeRawBufferPointer(rebasing: buffer[..<count]), from: fd))
                    continue
                }
                if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    emit(tracker.close(fd))
                    close(fd)
                }
                if count < 0 && errno == EINTR { continue }
                break
            }
        }
        emit(tracker.reapProcesses(isAlive: Self.isAlive))
    }

    private mutating func receive(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) {
        let count = read(fd, buffer.baseAddress, buffer.count)
        if count > 0 {
            emit(tracker.receive(UnsafeRawBufferPointer(rebasing: buffer[..<count]), from: fd))
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
            emit(tracker.close(fd))
            close(fd)
        }
    }

    private func emit(_ outputs: [ConnectionTracker.Output]) {
        for output in outputs {
            switch output {
            case .event(let event): display.handle(event)
            case .diagnostic(let diagnostic): display.report(diagnostic)
            }
        }
    }

    /// Passes what the command wrote on as it came, byte for byte (through the adapter, if any,
    /// which takes its progress lines out). When the reader of our standard output has gone
    /// away, the pipe from the command is closed: its next write meets the closed pipe (SIGPIPE)
    /// as it would without `activity run`.
    private func pump(
        _ fd: inout Int32, to stream: StandardStream, _ buffer: UnsafeMutableRawBufferPointer
    ) {
        let count = read(fd, buffer.baseAddress, buffer.count)
        if count > 0 {
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[..<count])
            if let adapter {
                show(
                    adapter.feed(bytes, from: stream == .standardOutput ? .standardOutput : .standardError), to: stream)
            } else {
                display.passthrough(Array(bytes), to: stream)
            }
            if display.isClosed(stream) { finishPipe(&fd, stream) }
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
            finishPipe(&fd, stream)
        }
    }

    private func finishPipe(_ fd: inout Int32, _ stream: StandardStream) {
        guard fd >= 0 else { return }
        if let adapter {
            show(adapter.finish(stream == .standardOutput ? .standardOutput : .standardError), to: stream)
        }
        close(fd)
        fd = -1
    }

    /// Hands an adapter's events to the display and its passthrough on as it came.
    func show(_ outputs: [AdapterOutput], to stream: StandardStream) {
        for output in outputs {
            switch output {
            case .event(var event):
                event.timestamp = POSIX.unixSeconds()
                display.handle(event)
            case .passthrough(let bytes, _):
                display.passthrough(bytes, to: stream)
            }
        }
    }

    /// Shows what the adapter has at the very end, after both pipes are closed.
    func showFinal(_ outputs: [AdapterOutput]) {
        show(outputs, to: .standardError)
    }
}
