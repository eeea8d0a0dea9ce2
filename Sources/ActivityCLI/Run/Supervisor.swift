import ActivityAdapters
import ActivityOverlay
import ActivityPOSIX
import ActivityRendering
import ActivityTerminal
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs one command for `activity run`: the socket, the child, its output, and one poll(2) loop
/// on the calling thread that feeds everything to the display in arrival order.
final class Supervisor {
    let command: [String]
    /// The render session with what finishing it involves (live OTLP export); events, output
    /// and keys go to its ``SessionDisplay/session``.
    let display: SessionDisplay
    var session: RenderSession { display.session }
    /// How long connections and output pipes still open after the child exited may go on.
    let grace: Double
    /// Whether the child may take the terminal's foreground. Not under the terminal overlay: there
    /// the command's own activity blocks input and is cancellable, so the overlay swallows keys, and
    /// Esc cancels the command's cancellable work (or, with none shown, interrupts the command).
    let mayTakeTerminal: Bool

    /// The cancels asked for in the display: sent back to reporters, or, for the command's own
    /// activity, an interruption of the command (told the child's pid for that).
    let cancels: CancelRequests
    /// Which adapter turns the command's own progress output into events (`nil`: none).
    let adapterName: String?
    /// Whether the command runs on a pseudo-terminal (the display is a live one on the terminal
    /// that is also standard output), instead of pipes.
    let usesTerminal: Bool
    /// `-v`: says what `run` did for the command beyond running it (apt's status descriptor).
    let verbose: Bool

    init(
        command: [String], display: SessionDisplay, grace: Double, mayTakeTerminal: Bool, cancels: CancelRequests,
        adapterName: String? = nil, usesTerminal: Bool = false, verbose: Bool = false
    ) {
        self.usesTerminal = usesTerminal
        self.verbose = verbose
        self.command = command
        self.display = display
        self.grace = grace
        self.mayTakeTerminal = mayTakeTerminal
        self.cancels = cancels
        self.adapterName = adapterName
    }

    /// How the run ended: the exit status, and the signal that killed the command, if one did.
    struct Outcome {
        var status: Int32
        var signal: Int32?
    }

    /// Runs the command to its end; returns the status `activity run` exits with, and the signal
    /// it ends by instead when one killed the command.
    func run() -> Outcome {
        let root = ActivityID(unchecked: ActivityID.randomPrefix() + ".run")
        // A frame around the command's own activities: displays treat those as top-level.
        let frame: [String: AttributeValue] = [
            ActivityEvent.Begin.frameAttribute: .bool(true), OverlayConfiguration.priorityAttribute: .number(-1),
        ]
        session.handle(
            .begin(
                .init(
                    id: root, title: Spawn.title(command), cancellable: !mayTakeTerminal,
                    blocking: mayTakeTerminal ? .none : .block, attrs: frame, timestamp: SystemClock.unixTimestamp())))
        session.attributeOutput(to: root)
        func fail(_ message: String, status: Int32) -> Outcome {
            session.handle(
                .end(.init(id: root, status: .failure, error: message, timestamp: SystemClock.unixTimestamp())))
            display.finish()
            Console.error(message, command: "run")
            return Outcome(status: status)
        }

        let server: SocketServer
        do throws(SystemError) {
            server = try SocketServer()
        } catch {
            return fail(error.description, status: ExitCode.osError)
        }
        defer { server.close() }
        // Zig's progress comes on a descriptor of its own: its output is only text.
        let readsDescriptorOnly = adapterName.flatMap(AdapterRegistry.named)?.readsBinaryStream == true
        var adapter: (any OutputAdapter)?
        if let adapterName, !readsDescriptorOnly {
            do throws(AdapterChoice.Failure) {
                adapter = try AdapterChoice.make(
                    adapterName, command: command, parent: root, idPrefix: ActivityID.randomPrefix() + ".adapt")
            } catch {
                return fail(error.message, status: ExitCode.unavailable)
            }
        }
        var environment = Spawn.environment(sink: "unix:" + server.path, parent: root.rawValue)
        var statusDescriptor: (any StatusDescriptor)?
        var statusAdapter: (any OutputAdapter)?
        switch AptStatusDescriptor.open(
            command: command, adapterName: adapterName, environment: environment, directory: server.directory)
        {
        case .opened(let descriptor):
            statusDescriptor = descriptor
            environment = descriptor.environment(environment)
            // Its own pipeline: apt's status lines never meet a half line of its other output.
            statusAdapter = try? AdapterChoice.make(
                "apt", command: command, parent: root, idPrefix: ActivityID.randomPrefix() + ".apt-status")
            if verbose { note(descriptor.note, root: root) }
        case .skipped(let reason):
            if verbose { note("apt: no status descriptor: \(reason)", root: root) }
        case .notApt:
            break
        }
        switch ZigProgressDescriptor.open(command: command, adapterName: adapterName) {
        case .success(let descriptor)?:
            statusDescriptor = descriptor
            environment = descriptor.environment(environment)
            statusAdapter = try? AdapterChoice.make(
                adapterName ?? "zig", command: command, parent: root,
                idPrefix: ActivityID.randomPrefix() + ".zig-progress")
            if verbose { note(descriptor.note, root: root) }
        case .failure(let skipped)?:
            if verbose { note("zig: no progress descriptor: \(skipped.reason)", root: root) }
        case nil:
            break
        }
        // Before the socket's directory goes: apt's file is in it.
        defer { statusDescriptor?.close() }
        let keeping = statusDescriptor.map { [$0.number] } ?? []
        let started: Started
        do throws(StartFailure) {
            started =
                try usesTerminal
                ? startOnTerminal(environment, root: root, keeping: keeping)
                : startOnPipes(environment, keeping: keeping)
        } catch {
            return fail(error.message, status: error.exitStatus)
        }
        statusDescriptor?.closeWriteEnd()
        // On a pseudo-terminal the screen model gets every byte: the adapter only reads.
        if started.terminal != nil { adapter?.dropPassthrough() }
        cancels.set(started.pid)
        let child = started.child
        defer { child.release() }
        guard child.startWaiting() else {
            child.forward(SIGKILL)
            return fail(
                "cannot start a thread to wait for the command: \(SystemError.reason(errno))", status: ExitCode.osError)
        }

        let tracker = ConnectionTracker(root: root, tree: .system(command: started.pid))
        var loop = IOLoop(
            server: server, child: child, session: session, tracker: tracker,
            output: started.output, errors: started.errors, grace: grace, adapter: adapter,
            status: statusDescriptor?.takeReadEnd() ?? -1, statusAdapter: statusAdapter,
            adaptsStandardOutput: started.terminal != nil || TerminalDevice.isTerminal(1)
                || adapter?.reportsOnStandardOutput == true,
            terminal: started.terminal, cancels: cancels)
        loop.run()
        // Before the summary: the person's terminal as it was, once what was drawn under the
        // display's settings has been written.
        if let keys = started.terminal?.keys {
            session.drawNow()
            keys.restore()
        }

        let status = child.status ?? 0
        let exitStatus: Int32
        var killedBy: String?
        var killingSignal: Int32?
        var end = ActivityEvent.End(id: root, timestamp: SystemClock.unixTimestamp())
        if let code = ChildProcess.exitCode(status) {
            exitStatus = code
            if code != 0 {
                end.status = .failure
                end.error = "exit status \(code)"
            }
        } else {
            let signal = ChildProcess.termSignal(status) ?? SIGKILL
            exitStatus = ExitCode.killed(by: signal)
            killingSignal = signal
            end.status = .failure
            killedBy = SignalNumbers.name(signal)
            end.error = "killed by \(SignalNumbers.name(signal))"
        }
        if let statusAdapter {
            loop.showFinal(statusAdapter.finish(exitStatus: exitStatus, signal: killedBy))
        }
        if let adapter {
            loop.showFinal(adapter.finish(exitStatus: exitStatus, signal: killedBy))
        }
        // The tool's own message says more than its exit status.
        if let message = statusAdapter?.failureMessage ?? adapter?.failureMessage, end.status == .failure {
            end.error = "\(message) (\(end.error ?? ""))"
        }
        // Its output could not be passed on (a full disk): that is the failure to show, not the
        // SIGPIPE that the closed pipe then gave the command.
        if let lost = WriteFailure.of(session).first {
            end.status = .failure
            end.error = lost.message
        }
        session.handle(.end(end))
        display.finish()
        return Outcome(status: exitStatus, signal: killingSignal)
    }

    /// A line on the display about what `run` did, under the command's activity.
    private func note(_ message: String, root: ActivityID) {
        session.handle(.log(.init(message: message, id: root, level: .info, timestamp: SystemClock.unixTimestamp())))
    }

    /// The command, started: its output descriptors (-1 for none) and, on a pseudo-terminal,
    /// what reads it.
    private struct Started {
        var pid: pid_t
        var child: ChildProcess
        var output: Int32
        var errors: Int32
        var terminal: TerminalPump?
    }

    /// This program, run again as the pty's session leader.
    static let executable = SystemCall.executablePath()

    private struct StartFailure: Error {
        var message: String
        var exitStatus: Int32
    }

    /// Standard output and error on two pipes; the real terminal handed to the command's process
    /// group when `activity` has it in the foreground, so the command can read it.
    private func startOnPipes(_ environment: [String], keeping: [Int32]) throws(StartFailure) -> Started {
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard SystemCall.pipe(&output) else {
            throw StartFailure(message: "pipe: \(SystemError.reason(errno))", exitStatus: ExitCode.osError)
        }
        guard SystemCall.pipe(&errors) else {
            close(output[0])
            close(output[1])
            throw StartFailure(message: "pipe: \(SystemError.reason(errno))", exitStatus: ExitCode.osError)
        }
        let pid: pid_t
        do throws(Spawn.Failure) {
            pid = try Spawn.spawn(
                command, environment: environment, streams: .pipes(output: output[1], error: errors[1]),
                keeping: keeping)
        } catch {
            [output[0], output[1], errors[0], errors[1]].forEach { close($0) }
            throw StartFailure(message: error.message(for: command[0]), exitStatus: error.exitStatus)
        }
        close(output[1])
        close(errors[1])
        let terminal: Int32? = mayTakeTerminal && RawMode.isForeground(0) ? 0 : nil
        return Started(
            pid: pid, child: ChildProcess(pid: pid, terminal: terminal), output: output[0], errors: errors[0])
    }

    /// On a pseudo-terminal sized and set up like the real one; keys typed on the real one
    /// copied in (when `activity` reads it in the foreground), so line editing, Ctrl-C, Ctrl-Z and
    /// Ctrl-\\ reach the command through the pty's own line discipline.
    /// The session leader passes `keeping` on to the command: they are not close-on-exec in it.
    private func startOnTerminal(
        _ environment: [String], root: ActivityID, keeping: [Int32]
    ) throws(StartFailure) -> Started {
        guard let executable = Self.executable else {
            throw StartFailure(
                message: "cannot run a command on a pseudo-terminal: this program's own path is not available "
                    + "on this platform", exitStatus: ExitCode.osError)
        }
        let pty: PseudoTerminal
        do throws(SystemError) {
            pty = try PseudoTerminal(like: 2)
        } catch {
            throw StartFailure(message: error.description, exitStatus: ExitCode.osError)
        }
        let forwardsKeys = RawMode.isForeground(0)
        // A command that is not there fails here, as on pipes; one that cannot be executed is
        // reported by the session leader, on the pty.
        if Spawn.resolve(command[0], environment: environment) == nil {
            pty.close()
            let failure = Spawn.Failure(errno: ENOENT)
            throw StartFailure(message: failure.message(for: command[0]), exitStatus: failure.exitStatus)
        }
        let pid: pid_t
        do throws(Spawn.Failure) {
            pid = try Spawn.spawn(
                [executable, SessionLeader.command, "--"] + command, environment: environment,
                streams: .terminal(path: pty.slavePath, input: forwardsKeys), keeping: keeping)
        } catch {
            pty.close()
            throw StartFailure(message: error.message(for: command[0]), exitStatus: error.exitStatus)
        }
        // The TTY display ends each line it writes with "\r\n" (the command's rows, its own
        // lines and frames), so the terminal's output processing can be off while it draws.
        let keys = forwardsKeys ? RawMode(0, processesOutput: false) : nil
        let session = self.session
        let suspension = ChildProcess.Suspension(
            before: {
                session.suspendDrawing()
                keys?.restore()
            },
            after: {
                keys?.resume()
                pty.copySize(from: 2)
                session.resumeDrawing()
            })
        let pump = TerminalPump(pty: pty, root: root, keys: keys, terminal: 2)
        return Started(
            pid: pid, child: ChildProcess(pid: pid, terminal: nil, suspension: suspension), output: pty.master,
            errors: -1, terminal: pump)
    }
}

/// The poll(2) loop of ``Supervisor``: new connections, their events, the child's two output
/// pipes, forwarded signals and the child's exit.
struct IOLoop {
    let server: SocketServer
    let child: ChildProcess
    let session: RenderSession
    var tracker: ConnectionTracker
    var output: Int32
    var errors: Int32
    let grace: Double
    /// Turns the command's progress output into events; what it does not take passes through.
    let adapter: (any OutputAdapter)?
    /// apt's status descriptor or Zig's progress descriptor (``StatusDescriptor``), -1 for none
    /// or once closed.
    var status: Int32
    /// Reads the status descriptor: a pipeline of its own, so lines never mix with the output's.
    let statusAdapter: (any OutputAdapter)?
    /// Whether the adapter reads standard output too: when that output is shown on a terminal, or
    /// the tool reports there (rsync). Otherwise output to a file or a pipe is data
    /// (`curl -s URL > file`), passed on byte for byte whatever it looks like.
    let adaptsStandardOutput: Bool
    /// On a pseudo-terminal: `output` is its master side, and this shows what arrives there.
    var terminal: TerminalPump?
    /// Whether keys typed on the real terminal are still read.
    private var keysOpen: Bool
    /// On a pseudo-terminal, the adapter that reads the command's screen rows rather than its
    /// bytes (``TerminalPump/takeRows()``).
    private var rowsReader: (any OutputAdapter)?
    /// When `rowsReader` reads the rows: once a frame is whole.
    private var rowsSchedule = RowsSchedule()
    /// The cancels the display asks for; `nil` where nothing can be cancelled (tests).
    let cancels: CancelRequests?
    /// The adapter's activities still open, oldest first: the newest owns the command's output.
    private var adapted: [ActivityID] = []
    /// Set while no file descriptor is free for a new connection.
    private var acceptPausedUntil: Double?
    /// When the adapter's unfinished line of each stream passes through, unless more comes:
    /// a prompt waiting for an answer (``promptPause``).
    private var releasesLine: [StandardStream: Double] = [:]
    private var warnedOutOfDescriptors = false

    init(
        server: SocketServer, child: ChildProcess, session: RenderSession, tracker: ConnectionTracker,
        output: Int32, errors: Int32, grace: Double, adapter: (any OutputAdapter)? = nil,
        status: Int32 = -1, statusAdapter: (any OutputAdapter)? = nil,
        adaptsStandardOutput: Bool = true, terminal: TerminalPump? = nil, cancels: CancelRequests? = nil
    ) {
        self.cancels = cancels
        self.status = status
        self.statusAdapter = statusAdapter
        self.adapter = adapter
        self.adaptsStandardOutput = adaptsStandardOutput
        self.terminal = terminal
        self.keysOpen = terminal?.keys != nil
        // apt's own status row reaches the activity its status descriptor's lines make: one
        // installation, whichever tells its progress.
        let rowsReader = statusAdapter ?? adapter
        if self.terminal != nil, let rowsReader, rowsReader.readsScreen {
            self.rowsReader = rowsReader
            self.terminal?.readsRows = true
        }
        self.server = server
        self.child = child
        self.session = session
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
            if deadline != nil && output < 0 && errors < 0 && status < 0 && tracker.isEmpty
                && !server.hasPendingConnection
            {
                break
            }
            if let deadline, SystemClock.monotonicSeconds() >= deadline { break }
            // The display's reader stalls: the command's output waits in its pipes (the command
            // blocks on a full one, as on a bare terminal), while reporters are still answered.
            let behind = session.outputIsBehind
            var fds = [
                pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: deadline == nil ? child.exitNotice?.readEnd ?? -1 : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: acceptPausedUntil == nil ? server.fileDescriptor : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: behind ? -1 : output, events: Int16(POLLIN), revents: 0),
                pollfd(fd: behind ? -1 : errors, events: Int16(POLLIN), revents: 0),
                pollfd(fd: keysOpen ? 0 : -1, events: Int16(POLLIN), revents: 0),
                pollfd(
                    fd: output >= 0 && terminal?.hasPendingKeys == true ? output : -1, events: Int16(POLLOUT),
                    revents: 0),
                pollfd(fd: cancels?.wakeUp?.readEnd ?? -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: status, events: Int16(POLLIN), revents: 0),
                pollfd(fd: behind ? session.outputCaughtUpDescriptor : -1, events: Int16(POLLIN), revents: 0),
            ]
            fds += tracker.descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            var timeout =
                deadline.map { Int32(saturating: max(0, ($0 - SystemClock.monotonicSeconds()) * 1000), rounding: .up) }
                ?? -1
            let session = self.session
            if let wait = terminal?.tick(on: session) {
                timeout = timeout < 0 ? wait : min(timeout, wait)
                if let rest = rowsSchedule.wait(at: SystemClock.monotonicSeconds()) {
                    let milliseconds = Int32(saturating: rest * 1000, rounding: .up)
                    timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds)
                } else {
                    readRows()
                }
            }
            if tracker.watchesProcesses { timeout = timeout < 0 ? 250 : min(timeout, 250) }
            // Woken when the reader has caught up; looks again soon in any case.
            if behind { timeout = timeout < 0 ? Self.behindPause : min(timeout, Self.behindPause) }
            if let until = acceptPausedUntil {
                let rest = Int32(saturating: max(0, (until - SystemClock.monotonicSeconds()) * 1000), rounding: .up)
                timeout = timeout < 0 ? rest : min(timeout, rest)
            }
            if let until = releasesLine.values.min() {
                let rest = Int32(saturating: max(0, (until - SystemClock.monotonicSeconds()) * 1000), rounding: .up)
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
                deadline = SystemClock.monotonicSeconds() + grace
            }
            if acceptPausedUntil != nil { acceptPending() }
            if fds[2].revents & readable != 0 {
                acceptPending()
                // A script calling `activity emit` again has often just seen a child die.
                if tracker.watchesProcesses { nextReap = 0 }
            }
            if fds[3].revents & readable != 0 { output = pump(output, to: .stdout, buffer) }
            if fds[4].revents & readable != 0 { errors = pump(errors, to: .stderr, buffer) }
            if fds[5].revents & readable != 0 { keysOpen = terminal?.readKeys(on: session) ?? false }
            if fds[6].revents != 0 { terminal?.writeKeys() }
            if fds[7].revents & readable != 0, let cancels { sendBack(cancels.take()) }
            if fds[8].revents & readable != 0 { readStatus(buffer) }
            if fds[9].revents & readable != 0 { session.takeOutputCaughtUp() }
            releaseWaitingLines()
            for index in 10..<fds.count where fds[index].revents & readable != 0 {
                receive(fds[index].fd, buffer)
            }
            if tracker.watchesProcesses && SystemClock.monotonicSeconds() >= nextReap {
                reapProcesses(buffer)
                nextReap = SystemClock.monotonicSeconds() + 0.1
            }
        }
        // The grace is over: what is queued is read, whatever is still open is closed, and its
        // activities abandoned. Connections still in the backlog (they waited for a free
        // descriptor; their reporters may have written everything and gone) are taken in turn
        // as closing the others frees descriptors, even when every connection taken so far
        // had ended. Bounded, against a reporter that connects for ever (the backlog holds 128).
        var passes = 0
        repeat {
            acceptPausedUntil = nil
            reapProcesses(buffer)
            for fd in tracker.descriptors {
                tracker.close(fd, into: session)
                close(fd)
            }
            passes += 1
        } while server.hasPendingConnection && passes < 256
        tracker.reapProcesses(all: true, isAlive: Self.isAlive, into: session)
        // What the command wrote while its output waited for the display's reader is passed on.
        output = drainPipe(output, .stdout, buffer)
        errors = drainPipe(errors, .stderr, buffer)
        output = finishPipe(output, .stdout)
        errors = finishPipe(errors, .stderr)
        finishStatus()
    }

    /// Whether a process exists (a zombie of ours counts as gone once the child has exited).
    static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// Accepts every pending connection. Out of file descriptors, the listening socket rests for
    /// a moment (its connections wait in the backlog, their reporters' writes are buffered or
    /// time out), so the loop never spins; the person is told once.
    private mutating func acceptPending() {
        if let until = acceptPausedUntil, SystemClock.monotonicSeconds() < until { return }
        acceptPausedUntil = nil
        let session = self.session
        while true {
            switch server.accept(refused: { uid in
                let message = "refused a reporter of another user (uid \(uid))"
                session.handle(.log(.init(message: message, level: .warning, timestamp: SystemClock.unixTimestamp())))
            }) {
            case .connection(let fd):
                // Unknown, a descriptor reused for a new connection must not keep its old name.
                session.name(sender: fd, as: ReporterName.of(connection: fd))
                tracker.open(fd)
            case .none:
                return
            case .outOfDescriptors(let error):
                acceptPausedUntil = SystemClock.monotonicSeconds() + Self.acceptPause
                if !warnedOutOfDescriptors {
                    warnedOutOfDescriptors = true
                    let message =
                        "cannot accept more reporters for now (\(SystemError.reason(error))); "
                        + "new ones wait until others finish"
                    session.handle(
                        .log(.init(message: message, level: .warning, timestamp: SystemClock.unixTimestamp())))
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
                switch try? SystemCall.read(fd, into: buffer) {
                case .bytes(let count):
                    tracker.receive(UnsafeRawBufferPointer(rebasing: buffer[..<count]), from: fd, into: session)
                    continue
                case .wouldBlock:
                    break
                case .endOfFile, nil:
                    tracker.close(fd, into: session)
                    close(fd)
                }
                break
            }
        }
        tracker.reapProcesses(isAlive: Self.isAlive, into: session)
    }

    private mutating func receive(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) {
        switch try? SystemCall.read(fd, into: buffer) {
        case .bytes(let count):
            tracker.receive(UnsafeRawBufferPointer(rebasing: buffer[..<count]), from: fd, into: session)
        case .wouldBlock:
            break
        case .endOfFile, nil:
            tracker.close(fd, into: session)
            close(fd)
        }
    }

    /// Sends each cancel to the reporter that began the activity: a control line on its
    /// connection, or the signal an `activity emit` script chose. A cancel for the command's own
    /// activity interrupts the command. A cancel that cannot go anywhere is dropped: a reporter
    /// without a control channel is never signalled for want of one.
    private mutating func sendBack(_ ids: [ActivityID]) {
        for id in ids {
            if id == tracker.root {
                cancels?.interrupt()
                continue
            }
            switch tracker.cancel(id, in: session) {
            case .line(let line, let fd):
                // One short line on a socket the reporter reads: never waits, never raises SIGPIPE.
                _ = try? SystemCall.write(fd, from: line, socket: true, dontWait: true)
            case .signal(let signal, let pid):
                kill(pid, signal)
            case .ignored:
                break
            }
        }
    }

    /// Passes what the command wrote on as it came, byte for byte (through the adapter, if any,
    /// which takes its progress lines out). When the reader of our standard output has gone
    /// away, the pipe from the command is closed: its next write meets the closed pipe (SIGPIPE)
    /// as it would without `activity run`.
    /// Returns the descriptor, or -1 once it is closed.
    private mutating func pump(
        _ fd: Int32, to stream: StandardStream, _ buffer: UnsafeMutableRawBufferPointer
    ) -> Int32 {
        let read = readAvailable(fd, into: buffer)
        switch read.result {
        case .bytes(let count):
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[..<count])
            if rowsReader != nil {
                // On a pseudo-terminal the screen model gets every byte, so that the command's
                // display stays as it is; the adapter reads the rows it shows, for its events,
                // once the frame is whole.
                pass(Array(bytes), to: stream)
                let now = SystemClock.monotonicSeconds()
                if rowsSchedule.readsAfter(read.lastRead, bufferFull: count == buffer.count, at: now) { readRows() }
            } else if let adapter = adapter(for: stream) {
                if terminal != nil { pass(Array(bytes), to: stream) }
                show(adapter.feed(bytes, from: Self.adapterStream(stream)), to: stream)
            } else {
                pass(Array(bytes), to: stream)
            }
            if session.isClosed(stream) || read.ended { return finishPipe(fd, stream) }
            let holds = adapter(for: stream)?.holdsUnfinishedLine(Self.adapterStream(stream))
            releasesLine[stream] = holds == true ? SystemClock.monotonicSeconds() + Self.promptPause : nil
        case .wouldBlock:
            break
        case .endOfFile, nil:
            // EIO on a pseudo-terminal's master: every holder of the slave has closed it.
            return finishPipe(fd, stream)
        }
        return fd
    }

    /// Reads what `fd` holds now into `buffer`. A pseudo-terminal gives at most a few KiB a read
    /// (its line discipline's buffer), so its master is read again until the buffer is full or
    /// it has nothing more: what the command wrote meanwhile is shown as one piece, its screen
    /// and its display paying once for many reads. `ended` tells that the end came after the
    /// bytes read (they are passed on first); `lastRead` is how many the last read gave (what
    /// tells whether it may have cut a write, ``RowsSchedule``).
    private func readAvailable(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer
    ) -> (result: ReadResult?, ended: Bool, lastRead: Int) {
        let first = try? SystemCall.read(fd, into: buffer)
        guard case .bytes(var count) = first else { return (first, false, 0) }
        guard terminal != nil, fd == output else { return (first, false, count) }
        var last = count
        while count < buffer.count {
            switch try? SystemCall.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...])) {
            case .bytes(let more):
                count += more
                last = more
            case .wouldBlock: return (.bytes(count), false, last)
            case .endOfFile, nil: return (.bytes(count), true, last)
            }
        }
        return (.bytes(count), false, last)
    }

    /// How long, in milliseconds, the loop waits before it looks again whether the display's
    /// reader has caught up.
    static let behindPause: Int32 = 10

    /// How long an unfinished line the adapter holds waits for more before it passes through
    /// (unless it is the adapter's progress): a prompt shows at once, to a person's eye.
    static let promptPause = 0.05

    /// Passes on the unfinished lines whose time is up (``promptPause``).
    private mutating func releaseWaitingLines() {
        let now = SystemClock.monotonicSeconds()
        for (stream, until) in releasesLine where until <= now {
            releasesLine[stream] = nil
            guard let adapter = adapter(for: stream) else { continue }
            show(adapter.releaseUnfinishedLine(Self.adapterStream(stream)), to: stream)
        }
    }

    /// Passes on what is in the pipe now (the pipe holds at most a few pages), without waiting
    /// for more: a pipe still open after the grace (a background process holds it) is closed.
    /// Returns the descriptor, or -1 once it is closed.
    private mutating func drainPipe(
        _ fd: Int32, _ stream: StandardStream, _ buffer: UnsafeMutableRawBufferPointer
    ) -> Int32 {
        var fd = fd
        var rounds = 0
        while fd >= 0 && rounds < 1024 {
            rounds += 1
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 0) > 0 else { break }
            fd = pump(fd, to: stream, buffer)
        }
        return fd
    }

    /// Reads apt's status lines. End of file is normal: apt has exited, or closed it.
    private mutating func readStatus(_ buffer: UnsafeMutableRawBufferPointer) {
        switch try? SystemCall.read(status, into: buffer) {
        case .bytes(let count):
            showStatus(statusAdapter?.feed(UnsafeRawBufferPointer(rebasing: buffer[..<count]), from: .standardError))
        case .wouldBlock:
            break
        case .endOfFile, nil:
            finishStatus()
        }
    }

    private mutating func finishStatus() {
        guard status >= 0 else { return }
        showStatus(statusAdapter?.finish(.standardError))
        close(status)
        status = -1
    }

    /// The events made of apt's status lines. What else comes on the descriptor is dropped: it is
    /// apt's machine output, asked for by `run`, not the person (apt prints its messages too).
    private mutating func showStatus(_ outputs: [AdapterOutput]?) {
        show((outputs ?? []).filter { if case .event = $0 { true } else { false } }, to: .stderr)
    }

    /// How an adapter names `stream`.
    private static func adapterStream(_ stream: StandardStream) -> AdapterStream {
        stream == .stdout ? .standardOutput : .standardError
    }

    /// The adapter that reads `stream`, if any.
    private func adapter(for stream: StandardStream) -> (any OutputAdapter)? {
        stream == .stdout && !adaptsStandardOutput ? nil : adapter
    }

    /// Closes the pipe (or master) and returns -1.
    private mutating func finishPipe(_ fd: Int32, _ stream: StandardStream) -> Int32 {
        guard fd >= 0 else { return -1 }
        if let adapter = adapter(for: stream) {
            show(adapter.finish(Self.adapterStream(stream)), to: stream)
        }
        let session = self.session
        if stream == .stdout {
            terminal?.finish(on: session)
            readRows()
        }
        close(fd)
        return -1
    }

    /// Hands the rows that changed on the command's screen to the adapter that reads them.
    private mutating func readRows() {
        rowsSchedule.didRead()
        guard let rowsReader, let rows = terminal?.takeRows() else { return }
        show(rowsReader.readScreen(rows), to: .stdout)
        terminal?.noteProgressRows(rowsReader.progressRows, on: session)
    }

    /// The command's own output: to the pseudo-terminal's parser, else on as it came.
    private mutating func pass(_ bytes: [UInt8], to stream: StandardStream) {
        if terminal != nil {
            let session = self.session
            terminal?.show(bytes, on: session)
        } else {
            session.passthrough(bytes, to: stream)
        }
    }

    /// Hands an adapter's events to the display and its passthrough on as it came.
    mutating func show(_ outputs: [AdapterOutput], to stream: StandardStream) {
        for output in outputs {
            switch output {
            case .event(var event):
                event.timestamp = SystemClock.unixTimestamp()
                session.handle(event)
                noteOwner(of: event)
            case .passthrough(let bytes, _):
                if terminal == nil { pass(bytes, to: stream) }
            }
        }
    }

    /// Follows the adapter's activities: the command's output belongs to the innermost one open,
    /// else to the command's own.
    private mutating func noteOwner(of event: ActivityEvent) {
        switch event {
        case .begin(let begin):
            adapted.append(begin.id)
        case .end(let end):
            guard let index = adapted.lastIndex(of: end.id) else { return }
            adapted.remove(at: index)
        default:
            return
        }
        session.attributeOutput(to: adapted.last ?? tracker.root)
    }

    /// Shows what the adapter has at the very end, after both pipes are closed.
    mutating func showFinal(_ outputs: [AdapterOutput]) {
        show(outputs, to: .stderr)
    }
}
