import ActivityPOSIX
import ActivityWire
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One process's stream of lines to one destination: a queue and the thread that writes it.
///
/// The writer thread blocks `SIGPIPE` for itself, polls the descriptor before each write (so a
/// blocking descriptor never blocks it for long and its flags are never touched), writes each line
/// with one `write(2)` or `send(2, MSG_NOSIGNAL)`, and turns the connection off for good when the
/// reader has gone away.
///
/// With a control channel (the connection's own Unix socket, or `ACTIVITY_CONTROL`), the writer
/// thread also reads the consumer's cancel lines while it waits for work (``ControlReader``); it
/// is then woken through a pipe it polls together with the channel, instead of a semaphore.
package final class LineConnection: Sendable {
    package struct Target: Sendable {
        package var fd: Int32
        /// Whether the connection opened the descriptor itself (and closes it).
        package var owned: Bool
        package var isSocket: Bool
    }

    let target: Target?
    /// The destination as `ACTIVITY_SINK` names it, quoted (`"file:/dev/full"`), for the warning
    /// when writing to it fails.
    let name: String
    private let queueLimit: Int
    private let wake = DispatchSemaphore(value: 0)
    private let queue = Lock(Queue())
    /// The pipe that wakes a writer which also reads a control channel: read end, write end.
    private let wakePipe: WakeUpPipe?
    /// A control channel of its own (`ACTIVITY_CONTROL`), for closing this process's copy after
    /// `fork()`; `nil` when there is none or it is the connection's own socket.
    private let ownedControlFD: Int32?

    private struct Queue {
        var lines: [[UInt8]] = []
        /// Lines taken by the writer and not yet written.
        var inFlight = 0
        var broken = false
        var stalled = false
        var closed = false
        /// The writer thread has returned: the descriptor is never touched again.
        var finished = false
        var dropped = 0
    }

    /// - Parameter control: Where cancel lines come from: `nil` for none. A Unix socket the
    ///   connection opened is its own channel (pass ``ControlReader/Channel`` for it).
    init(target: Target?, name: String, queueLimit: Int, control: ControlReader.Channel? = nil) {
        self.target = target
        self.name = name
        self.queueLimit = queueLimit
        let control = target == nil ? nil : control
        if let control, let pipe = try? WakeUpPipe() {
            wakePipe = pipe
            ownedControlFD = control.owned ? control.fd : nil
        } else {
            if let control, control.owned { SystemCall.close(control.fd) }
            wakePipe = nil
            ownedControlFD = nil
        }
        let reader = ControlReader(wakePipe == nil ? nil : control)
        if target == nil {
            queue.withLock {
                $0.broken = true
                $0.finished = true
            }
        } else {
            let started = HelperThread.detach(named: "activity-writer") { [self] in run(reader) }
            if !started {
                queue.withLock {
                    $0.broken = true
                    $0.finished = true
                }
            }
        }
    }

    var droppedLines: Int { queue.withLock { $0.dropped } }

    // MARK: Producer side

    /// Queues `line`. When the queue is full, drops it at once if `mayDrop`, else waits up to
    /// `waitLimit` seconds for room (and not at all while the reader is known to be stalled).
    func enqueue(_ line: [UInt8], waitLimit: Double, mayDrop: Bool) {
        var deadline: Double?
        while true {
            enum Outcome { case queued, dropped, full }
            let outcome = queue.withLock { queue -> Outcome in
                if queue.broken || queue.closed { return .dropped }
                if queue.lines.count + queue.inFlight < queueLimit {
                    queue.lines.append(line)
                    return .queued
                }
                if mayDrop || queue.stalled {
                    queue.dropped += 1
                    return .dropped
                }
                return .full
            }
            switch outcome {
            case .queued:
                signal()
                return
            case .dropped:
                return
            case .full:
                let now = monotonicSeconds()
                let limit = deadline ?? (now + waitLimit)
                deadline = limit
                if now >= limit {
                    queue.withLock { queue in
                        queue.stalled = true
                        queue.dropped += 1
                    }
                    return
                }
                SystemClock.sleep(seconds: 0.0005)
            }
        }
    }

    /// Waits, at most `timeout` seconds, until the queue is empty or the connection is broken.
    func drain(timeout: Double) {
        let deadline = monotonicSeconds() + timeout
        while true {
            // A reader known to be stalled is not waited for again: that wait was already spent.
            let done = queue.withLock { $0.broken || $0.stalled || ($0.lines.isEmpty && $0.inFlight == 0) }
            if done || monotonicSeconds() >= deadline { return }
            SystemClock.sleep(seconds: 0.0005)
        }
    }

    /// Stops the writer after what is queued, and closes an owned descriptor. With `wait`, returns
    /// when the writer thread has finished (or after `wait` seconds).
    func close(wait: Double = 0) {
        queue.withLock { $0.closed = true }
        signal()
        let deadline = monotonicSeconds() + wait
        while monotonicSeconds() < deadline, !queue.withLock({ $0.finished }) {
            SystemClock.sleep(seconds: 0.0005)
        }
    }

    /// In a child after `fork()`: the writer thread did not survive; close this process's copy of
    /// an owned descriptor, so the parent's connection is the parent's alone.
    func abandonAfterFork() {
        if let target, target.owned { SystemCall.close(target.fd) }
        wakePipe?.close()
        // The parent's control channel stays the parent's: this process never reads it.
        if let ownedControlFD { SystemCall.close(ownedControlFD) }
    }

    /// Wakes the writer thread. The pipe is written under the queue's lock, which the writer
    /// holds when it closes the pipe, so a closed (and perhaps reused) descriptor is never written.
    private func signal() {
        guard let wakePipe else {
            wake.signal()
            return
        }
        queue.withLock { queue in
            guard !queue.finished else { return }
            wakePipe.wake()
        }
    }

    // MARK: Writer thread

    private func run(_ reader: ControlReader) {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
        var reader = reader
        defer {
            queue.withLock { queue in
                queue.finished = true
                wakePipe?.close()
            }
            reader.close()
        }
        guard let target else { return }
        while true {
            waitForWork(&reader)
            while true {
                let (batch, closed) = queue.withLock { queue -> ([[UInt8]], Bool) in
                    let batch = queue.lines
                    queue.lines.removeAll(keepingCapacity: true)
                    queue.inFlight = batch.count
                    return (batch, queue.closed)
                }
                for line in batch {
                    let outcome =
                        queue.withLock { $0.broken }
                        ? .gaveUp
                        : Self.write(line, to: target, signals: &pipeSignal) {
                            // A stalled reader: keep waiting, unless the sink is going away.
                            queue.withLock { $0.closed }
                        }
                    if case .failed(let error) = outcome, !outcome.readerWentAway {
                        // A reader that went away turns the sink off quietly; a destination that
                        // fails (a full disk) is said, once.
                        Warnings.once(
                            .sinkWriteFailed,
                            "cannot write to \(name): \(SystemError.reason(error)); reporting is off")
                    }
                    queue.withLock { queue in
                        queue.inFlight -= 1
                        if outcome != .written { queue.broken = true }
                        if queue.stalled, queue.lines.count + queue.inFlight <= queueLimit / 2 { queue.stalled = false }
                    }
                }
                if closed {
                    if target.owned { SystemCall.close(target.fd) }
                    return
                }
                if batch.isEmpty { break }
            }
        }
    }

    /// Sleeps until a line is queued; meanwhile, reads and performs the control lines that arrive.
    private func waitForWork(_ reader: inout ControlReader) {
        guard let wakePipe else { return wake.wait() }
        while true {
            var fds = [
                pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: reader.fd, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return }
            if fds[1].revents != 0 { reader.readAvailable() }
            if fds[0].revents != 0 {
                wakePipe.drain()
                return
            }
        }
    }

    /// How writing one line ended.
    package enum WriteOutcome: Equatable, Sendable {
        case written
        /// `giveUp` said so while the reader was stalled.
        case gaveUp
        /// The write failed with this `errno`: `EPIPE` (or `ECONNRESET`) when the reader has gone
        /// away, else a failure of the destination's own (`ENOSPC` on a full disk).
        case failed(Int32)

        /// Whether the reader went away: no failure of the writer's, said to no one.
        package var readerWentAway: Bool { self == .failed(EPIPE) || self == .failed(ECONNRESET) }
    }

    /// Writes one line whole; ``WriteOutcome/failed(_:)`` with the system's reason when the
    /// reader has gone away or the descriptor failed, ``WriteOutcome/gaveUp`` when `giveUp` says
    /// so while the reader is stalled (asked every 100 ms). The descriptor's flags are never
    /// changed: it is polled before each write.
    package static func write(
        _ line: [UInt8], to target: Target, signals: inout sigset_t, giveUp: () -> Bool
    ) -> WriteOutcome {
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                var request = pollfd(fd: target.fd, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&request, 1, 100)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return .failed(errno)
                }
                if ready == 0 {
                    if giveUp() { return .gaveUp }
                    continue
                }
                if request.revents & Int16(POLLOUT) == 0 { return .failed(pollFailure(request.revents, target)) }
                let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
                do throws(SystemError) {
                    switch try SystemCall.write(target.fd, from: rest, socket: target.isSocket, dontWait: true) {
                    case .written(let count):
                        offset += count
                    case .wouldBlock:
                        if giveUp() { return .gaveUp }
                    }
                } catch {
                    // The SIGPIPE a write to a pipe whose reader is gone raised (blocked here).
                    if error.code == EPIPE { SystemCall.consumePendingSIGPIPE(&signals) }
                    return .failed(error.code)
                }
            }
            return .written
        }
    }

    /// Waits, until `deadline` (monotonic seconds), for the reader of an owned socket to read
    /// everything written and close its end: the write side is shut so the reader sees the end,
    /// and whatever the reader sends meanwhile is read and dropped. A reporter that writes one
    /// line and exits (`activity emit`) calls it before it exits, so the reader meets a process
    /// that still exists at the other end: `SO_PEERCRED` names it, and `/proc` still describes
    /// it, rather than a pid the kernel may already have given to another process.
    package static func awaitReaderClose(_ target: Target, deadline: Double) {
        guard target.owned, target.isSocket, shutdown(target.fd, Int32(SHUT_WR)) == 0 else { return }
        var discarded = [UInt8](repeating: 0, count: 512)
        while true {
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { return }
            var request = pollfd(fd: target.fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, Int32(saturating: (remaining * 1000).rounded(.up)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return }
            switch try? SystemCall.read(target.fd, into: &discarded) {
            case .bytes, .wouldBlock: continue
            case .endOfFile, nil: return
            }
        }
    }

    /// The `errno` that a poll without `POLLOUT` stands for: a socket's pending error, a closed
    /// descriptor (`EBADF`), else the reader gone (`EPIPE`).
    private static func pollFailure(_ revents: Int16, _ target: Target) -> Int32 {
        if revents & Int16(POLLNVAL) != 0 { return EBADF }
        if target.isSocket {
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if getsockopt(target.fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0, failure != 0 { return failure }
        }
        return EPIPE
    }

    // MARK: Opening

    /// Opens `destination` for this process. A socket that accepts no connection within
    /// `connectTimeout` seconds (its backlog is full) is given up.
    package static func open(
        _ destination: ActivitySinkDestination, connectTimeout: Double = 1
    ) throws(ActivitySinkError) -> Target {
        switch destination {
        case .none:
            throw ActivitySinkError("none is not a destination; use NoOpActivitySink")
        case .standardOutput:
            return Target(fd: 1, owned: false, isSocket: isSocket(1))
        case .standardError:
            return Target(fd: 2, owned: false, isSocket: isSocket(2))
        case .fileDescriptor(let fd):
            if let problem = descriptorProblem(fd) { throw ActivitySinkError(problem) }
            return Target(fd: fd, owned: false, isSocket: isSocket(fd))
        case .file(let path):
            // O_NONBLOCK: a FIFO without a reader fails at once instead of blocking the open.
            let fd = SystemCall.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0o644)
            guard fd >= 0 else { throw ActivitySinkError("cannot open \(path): \(SystemError.reason(errno))") }
            return Target(fd: fd, owned: true, isSocket: false)
        case .unixSocket(let path):
            return try connect(path, timeout: connectTimeout)
        }
    }

    /// Why `fd:N` must not be written, or `nil` when it may. A descriptor number says nothing
    /// about what holds it by the time of the first event: a program that closed an inherited fd 3
    /// and then opened a data file has that file on fd 3. Only what a reporting channel can be is
    /// accepted: a pipe, a socket, a terminal, or a file opened for appending (a recording).
    package static func descriptorProblem(_ fd: Int32) -> String? {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0 else { return "fd:\(fd) is not an open file descriptor" }
        guard flags & O_ACCMODE != O_RDONLY else { return "fd:\(fd) is open for reading only" }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return "fd:\(fd): \(SystemError.reason(errno))" }
        switch info.st_mode & S_IFMT {
        case S_IFIFO, S_IFSOCK: return nil
        case S_IFCHR where isatty(fd) == 1: return nil
        case S_IFREG where flags & O_APPEND != 0: return nil
        case S_IFREG:
            return "fd:\(fd) is a file not opened for appending (events would overwrite what it holds)"
        default:
            return "fd:\(fd) is not a pipe, a socket, a terminal or a file opened for appending"
        }
    }

    private static func isSocket(_ fd: Int32) -> Bool {
        var info = stat()
        return fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
    }

    /// Connects without blocking past `timeout`: on Linux a Unix socket whose backlog is full
    /// refuses a non-blocking connect with EAGAIN, so it is retried until the deadline. The socket
    /// stays non-blocking (it is this connection's own; writes poll first).
    private static func connect(_ path: String, timeout: Double) throws(ActivitySinkError) -> Target {
        let fd = SystemCall.unixStreamSocket()
        guard fd >= 0 else { throw ActivitySinkError("cannot create a socket: \(SystemError.reason(errno))") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        guard var address = UnixAddress(path: path) else {
            SystemCall.close(fd)
            throw ActivitySinkError("the socket path \(path) is too long")
        }
        let deadline = monotonicSeconds() + timeout
        while true {
            let result = address.withSockaddr { SystemCall.connect(fd, $0, $1) }
            if result == 0 { break }
            let error = errno
            if error == EINTR { continue }
            if error == EINPROGRESS {
                // Darwin: the connection completes in the background; wait for it.
                var request = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let remaining = Int32(saturating: max(0, (deadline - monotonicSeconds()) * 1000))
                var failure: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                if poll(&request, 1, remaining) == 1, getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0,
                    failure == 0
                {
                    break
                }
                SystemCall.close(fd)
                throw ActivitySinkError("cannot connect to unix:\(path): no answer within \(timeout) s")
            }
            if error == EAGAIN && monotonicSeconds() < deadline {
                SystemClock.sleep(seconds: 0.001)
                continue
            }
            SystemCall.close(fd)
            let reason = error == EAGAIN ? "no answer within \(timeout) s" : SystemError.reason(error)
            throw ActivitySinkError("cannot connect to unix:\(path): \(reason)")
        }
        return Target(fd: fd, owned: true, isSocket: true)
    }
}
