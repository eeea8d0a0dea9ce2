import ActivityWire
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes events as protocol v1 JSON lines to a file descriptor, a file, a Unix socket, standard
/// output or standard error.
///
/// The sink never hurts the program that reports:
/// - `send(_:)` encodes the line (at most 4096 bytes) and queues it; a background thread writes
///   each line with one `write(2)` (one `send(2)` on a socket), so lines from many threads and
///   processes sharing a pipe never tear.
/// - A slow reader never blocks the caller: `progress` is dropped when the queue is full (the next
///   flush carries the newer value); `begin`, `end` and `log` wait at most ``waitLimit`` seconds for
///   room, then are dropped too, and while the reader stays stalled later lines do not wait again.
/// - A reader that has gone away turns the sink off: no `SIGPIPE` death (sockets are written with
///   `MSG_NOSIGNAL`; the writer thread blocks `SIGPIPE` for pipes and consumes it), no error.
/// - The caller's file descriptor flags are never changed: the writer polls before it writes.
/// - After `fork()`, a child that reports opens its own connection (or file) on first use.
///
/// The sink also hears the consumer's cancels (the control direction, `Schemas/README.md` §10):
/// on a `unix:` socket's own connection, or on the channel given as `control` (`ACTIVITY_CONTROL`)
/// for other destinations. A cancel for a cancellable activity of this process cancels it as
/// ``ActivitySystem/cancel(_:)`` does; everything else is ignored.
///
/// ```swift
/// let sink = try JSONLinesSink(.fileDescriptor(3))
/// ActivitySystem.bootstrap(sink)
/// ```
public final class JSONLinesSink: ActivityEventSink {
    /// Where the lines go.
    public let destination: ActivitySinkDestination

    /// The longest time, in seconds, that `begin`, `end` and `log` wait for room in the queue.
    public let waitLimit: Double

    /// The most lines queued before progress is dropped and other lines wait.
    public let queueLimit: Int

    private let encoder = ActivityEventEncoder()
    /// This process's connection; a child made by `fork()` opens its own on first use.
    private let connection: PerProcess<LineConnection>

    /// Opens `destination`.
    ///
    /// - Parameters:
    ///   - destination: Where to write; `.none` is not a destination (use ``NoOpActivitySink``).
    ///   - waitLimit: How long `begin`, `end` and `log` wait for a stalled reader; 0.25 s by default.
    ///   - queueLimit: How many lines may wait for the writer; 1024 by default.
    ///   - control: Where the consumer's cancels come from when `destination` is not a Unix socket
    ///     (whose own connection carries them): `.fileDescriptor(N)` open for reading, or
    ///     `.unixSocket(path:)`; `nil` (the default) for none. A child made by `fork()` never reads
    ///     a descriptor inherited this way.
    /// - Throws: ``ActivitySinkError`` when the file cannot be opened, the socket cannot be reached or
    ///   the descriptor is not open.
    public init(
        _ destination: ActivitySinkDestination, waitLimit: Double = 0.25, queueLimit: Int = 1024,
        control: ActivitySinkDestination? = nil
    ) throws(ActivitySinkError) {
        self.destination = destination
        self.waitLimit = max(0, waitLimit)
        self.queueLimit = max(1, queueLimit)
        let queueLimit = self.queueLimit
        let first = Self.connect(destination, try LineConnection.open(destination), control, queueLimit)
        connection = PerProcess(discard: { $0.close() }) { inherited in
            guard let inherited else { return first }
            inherited.abandonAfterFork()
            let control: ActivitySinkDestination? = if case .fileDescriptor? = control { nil } else { control }
            return Self.connect(destination, try? LineConnection.open(destination), control, queueLimit)
        }
        _ = connection.value
    }

    private static func connect(
        _ destination: ActivitySinkDestination, _ target: LineConnection.Target?, _ control: ActivitySinkDestination?,
        _ queueLimit: Int
    ) -> LineConnection {
        var channel: ControlReader.Channel?
        if case .unixSocket = destination, let target {
            channel = ControlReader.Channel(fd: target.fd, owned: false, isSocket: true)
        } else if let control, target != nil {
            channel = ControlReader.open(control)
        }
        return LineConnection(
            target: target, name: Diagnostic.quoted(destination.description), queueLimit: queueLimit, control: channel)
    }

    deinit {
        connection.existing?.close()
    }

    public func send(_ event: ActivityEvent) {
        let line = encoder.encode(event)
        let waits: Bool
        if case .progress = event { waits = false } else { waits = true }
        connection.value.enqueue(line, waitLimit: waits ? waitLimit : 0, mayDrop: !waits)
    }

    /// Waits, at most `timeout` seconds, until every queued line has been written (or the reader
    /// has gone away).
    public func flush(timeout: Double) {
        connection.value.drain(timeout: timeout)
    }

    /// Stops writing: lines already queued are written first, for at most `timeout` seconds; lines
    /// sent afterwards are dropped. When it returns, the sink no longer touches the descriptor, so
    /// the caller may close a descriptor it passed as `.fileDescriptor`. A file or socket the sink
    /// opened is closed.
    public func close(timeout: Double = 1) {
        let connection = connection.value
        connection.drain(timeout: timeout)
        connection.close(wait: max(timeout, 0.5))
    }

    /// How many lines were dropped because the reader was slow or gone. For tests and diagnostics.
    public var droppedLines: Int {
        connection.value.droppedLines
    }
}
