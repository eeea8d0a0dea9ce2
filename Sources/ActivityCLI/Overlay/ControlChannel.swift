import ActivityPOSIX
import ActivityReporting
import ActivityWire
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--control fd:N|unix:PATH`: the channel on which the process presenting `--mode overlay-jsonl`
/// sends cancel requests back, read on a thread of its own so the display never waits for it.
///
/// The channel is read through a description of our own: a pipe is reopened non-blocking through
/// `/proc/self/fd/N` and a socket is read with `MSG_DONTWAIT` on a duplicate, as the Swift SDK and
/// libactivity read `ACTIVITY_CONTROL`, so the flags the presenter's end shares stay as they are.
/// The given descriptor is then closed, so a command under `activity run` does not inherit it.
/// End of file on the channel ends the reading; nothing else does until ``stop()``.
///
/// ```swift
/// let channel = try ControlChannel(.fileDescriptor(3))
/// channel.start { line, request in … }
/// defer { channel.stop() }
/// ```
final class ControlChannel: Sendable {
    /// A line of the channel: its number (from 1) and what it asks for or why it is not a request.
    typealias Handler = @Sendable (Int, Result<ActivityID?, ControlLineProblem>) -> Void

    /// Why the channel cannot be read.
    struct Failure: Error, Sendable {
        var message: String
    }

    private let fd: Int32
    private let isSocket: Bool
    private let stopPipe: WakeUpPipe
    private let done = DispatchSemaphore(value: 0)
    /// Whether the thread is running, and whether ``stop()`` has been called.
    private let state = Mutex((started: false, stopped: false))

    /// Opens the channel; ``start(_:)`` starts reading it.
    ///
    /// - Throws: ``Failure`` when `source` is not `fd:N` (N ≥ 3, a pipe or socket open for
    ///   reading) or `unix:PATH` (a socket that accepts the connection).
    init(_ source: ActivitySinkDestination) throws(Failure) {
        if case .fileDescriptor(let given) = source, given <= 2 {
            throw Failure(
                message: "fd:\(given) is a standard stream; pass the channel on a descriptor of its own (3 or above)")
        }
        guard let channel = ControlReader.open(source) else {
            switch source {
            case .fileDescriptor(let given):
                throw Failure(message: "fd:\(given) is not a pipe or a socket open for reading")
            case .unixSocket(let path):
                throw Failure(message: "cannot connect to unix:\(path)")
            default:
                throw Failure(message: "\(source) is not fd:N or unix:PATH")
            }
        }
        var fd = channel.fd
        if case .fileDescriptor(let given) = source {
            // Our own descriptor (the reopened pipe, or a duplicate of the socket), then the
            // given one closed: it would otherwise be inherited by what `activity run` starts.
            if !channel.owned { fd = fcntl(given, F_DUPFD_CLOEXEC, 3) }
            guard fd >= 0 else { throw Failure(message: "fd:\(given): \(SystemError.reason(errno))") }
            close(given)
        }
        do throws(SystemError) {
            stopPipe = try WakeUpPipe()
        } catch {
            close(fd)
            throw Failure(message: "cannot create a pipe: \(error.reason)")
        }
        self.fd = fd
        isSocket = channel.isSocket
    }

    /// Starts reading on a thread of its own; `handler` is called there, once per line. Once only.
    func start(_ handler: @escaping Handler) {
        let starts = state.withLock { state in
            defer { state.started = true }
            return !state.started && !state.stopped
        }
        guard starts else { return }
        if !HelperThread.detach(named: "activity.control", { [self] in read(handler) }) {
            // No thread: the channel is not read, and stopping it waits for nothing.
            done.signal()
        }
    }

    /// Stops reading, waits for the reading thread and closes the channel. Idempotent.
    func stop() {
        let (first, started) = state.withLock { state in
            defer { state.stopped = true }
            return (!state.stopped, state.started)
        }
        guard first else { return }
        stopPipe.wake()
        if started { done.wait() }
        close(fd)
        stopPipe.close()
    }

    /// The most a request line may hold; a longer one is reported, not read.
    static let maxLineBytes = WireLimits.maxProducedLineBytes

    private func read(_ handler: Handler) {
        defer { done.signal() }
        var reader = ControlReader(.init(fd: fd, owned: false, isSocket: isSocket))
        var number = 0
        var inLongLine = false
        func deliver(_ piece: LineSplitter.Piece) {
            if inLongLine {
                inLongLine = !piece.isComplete
                return
            }
            number += 1
            guard piece.isComplete else {
                inLongLine = true
                handler(number, .failure(ControlLineProblem(message: "longer than \(Self.maxLineBytes) bytes")))
                return
            }
            if piece.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
            handler(number, ControlMessage.decodeRequest(piece.bytes))
        }
        while true {
            var fds = [
                pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopPipe.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0 && errno != EINTR { return }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            // The channel is closed by `stop()`, not by the reader (`owned: false`).
            if !reader.read(deliver) {
                reader.finish(deliver)
                return
            }
        }
    }
}
