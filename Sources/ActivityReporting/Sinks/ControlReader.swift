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

        package init(fd: Int32, owned: Bool, isSocket: Bool) {
            self.fd = fd
            self.owned = owned
            self.isSocket = isSocket
        }
    }

    private(set) var channel: Channel?
    private var splitter = LineSplitter(maxLineBytes: WireLimits.maxProducedLineBytes)

    /// Control lines ignored in this process: not a cancel this version knows, or a cancel for an
    /// activity that is not cancellable, not open, not this process's own, or already cancelled.
    package static let ignored = Atomic<Int>(0)

    package init(_ channel: Channel?) {
        self.channel = channel
    }

    var fd: Int32 { channel?.fd ?? -1 }

    /// Reads what is there and cancels what it asks for. A channel whose other end has gone away
    /// is closed, and never polled again.
    mutating func readAvailable() {
        var commands: [ControlMessage?] = []
        let open = read { piece in
            commands.append(piece.isComplete ? ControlMessage(decoding: piece.bytes) : nil)
        }
        if !open { close() }
        for command in commands { Self.perform(command) }
    }

    /// Reads what is there without waiting and passes on each piece of a line (the pieces of a
    /// line longer than the limit come incomplete, then one complete piece ends it). `false` once
    /// the other end has gone away or the channel failed; ``finish(_:)`` then passes on a last
    /// line that had no newline, for a caller that wants it.
    ///
    /// The one reading loop of a control channel: the SDK's writer thread and the overlay's
    /// `--control` channel both read through it.
    package mutating func read(_ deliver: (LineSplitter.Piece) -> Void) -> Bool {
        guard let channel else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            switch try? SystemCall.read(channel.fd, into: &buffer, dontWait: channel.isSocket) {
            case .bytes(let count):
                buffer.withUnsafeBytes { raw in
                    splitter.feed(UnsafeRawBufferPointer(rebasing: raw[..<count]), deliver)
                }
            case .wouldBlock: return true
            case .endOfFile, nil: return false
            }
        }
    }

    /// At the end of the channel: passes on a last line that had no newline.
    package mutating func finish(_ deliver: (LineSplitter.Piece) -> Void) {
        splitter.finish(deliver)
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
                // Not available on Darwin (no /proc/self/fd): there the pipe is not read, since
                // making the caller's description non-blocking would change its flags.
                let own = SystemCall.openOwnDescription(of: fd, flags: O_NONBLOCK)
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
