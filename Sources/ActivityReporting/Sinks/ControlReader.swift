import ActivityPOSIX
import ActivityWire
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the control direction of one connection: cancel lines a consumer sends back
/// (`Schemas/README.md` §10), on the writer thread of ``LineConnection``, never blocking it.
///
/// The channel is the connection's own Unix socket, or the one `ACTIVITY_CONTROL` names. A
/// descriptor the program was given keeps its flags: a socket is read with `MSG_DONTWAIT`, a pipe
/// through a non-blocking description of its own (`/proc/self/fd/N`, where the system has it).
package struct ControlReader {
    package struct Channel: Sendable {
        package var fd: Int32
        package var owned: Bool
        package var isSocket: Bool
    }

    private(set) var channel: Channel?
    private var splitter = LineSplitter(maxLineBytes: WireLimits.maxProducedLineBytes)

    /// Control lines ignored in this process: not a cancel this version knows, or a cancel for an
    /// activity that is not cancellable, not open, not this process's own, or already cancelled.
    package static let ignored = Atomic<Int>(0)

    init(_ channel: Channel?) {
        self.channel = channel
    }

    var fd: Int32 { channel?.fd ?? -1 }

    /// Reads what is there and cancels what it asks for. A channel whose other end has gone away
    /// is closed, and never polled again.
    mutating func readAvailable() {
        guard let channel else { return }
        var buffer = [UInt8](repeating: 0, count: 1024)
        var commands: [ControlMessage?] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                channel.isSocket
                    ? recv(channel.fd, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT))
                    : read(channel.fd, raw.baseAddress, raw.count)
            }
            if count > 0 {
                buffer.withUnsafeBytes { raw in
                    splitter.feed(UnsafeRawBufferPointer(rebasing: raw[..<count])) { piece in
                        commands.append(piece.isComplete ? ControlMessage(decoding: piece.bytes) : nil)
                    }
                }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            close()
            break
        }
        for command in commands { Self.perform(command) }
    }

    /// Cancels the activity a control line names, exactly once.
    static func perform(_ command: ControlMessage?) {
        guard case .cancel(let id)? = command, Flusher.shared.core(for: id)?.cancel() == true else {
            ignored.wrappingAdd(1, ordering: .relaxed)
            return
        }
    }

    mutating func close() {
        if let channel, channel.owned { SystemCall.close(channel.fd) }
        channel = nil
    }

    /// The channel `ACTIVITY_CONTROL` names (`fd:N` or `unix:PATH`), or `nil` when it cannot be
    /// read. `fd:N` must be open for reading.
    package static func open(_ source: ActivitySinkDestination) -> Channel? {
        switch source {
        case .fileDescriptor(let fd):
            var info = stat()
            let flags = fcntl(fd, F_GETFL)
            guard flags >= 0, flags & O_ACCMODE != O_WRONLY, fstat(fd, &info) == 0 else { return nil }
            switch info.st_mode & S_IFMT {
            case S_IFSOCK:
                return Channel(fd: fd, owned: false, isSocket: true)
            case S_IFIFO:
                // A description of our own of the same pipe, so the caller's flags stay as they are.
                let own = SystemCall.open("/proc/self/fd/\(fd)", O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0)
                return own >= 0 ? Channel(fd: own, owned: true, isSocket: false) : nil
            default:
                return nil
            }
        case .unixSocket:
            guard let target = try? LineConnection.open(source, connectTimeout: 0.25) else { return nil }
            return Channel(fd: target.fd, owned: true, isSocket: true)
        default:
            return nil
        }
    }
}
