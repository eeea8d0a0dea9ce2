public import ActivityWire

/// Something that draws an activity stream: a terminal display, a log file, a plugin process.
///
/// A ``RenderSession`` owns one ``ActivityStore`` and hands every change to its renderers, one
/// call at a time: calls never overlap, so a renderer needs no locking of its own, and `store`
/// is the state *after* the change.
///
/// Conforming types must guarantee:
/// - **Never throw, never crash, never block for long** on the hot path. Fallible set-up (opening
///   a file, starting a process) belongs in a throwing `init`. A renderer whose output goes away
///   (a closed pipe, a full disk) stops writing and carries on; it never kills the process with
///   SIGPIPE.
/// - **Sanitize** what it shows of ``ActivityUpdate/event(in:)`` (a `log` event's message) with
///   ``TextSanitizer`` before it reaches a terminal or a log. The text of ``ActivityState`` (title,
///   message, unit, error, attributes) is sanitized by the store already.
/// - **Read the store** for the activity: an update carries its ``ActivityUpdate/handle`` and what
///   the event set, not a copy of the activity; `store[handle]` is the activity after the change.
/// - **Keep up**: ``render(_:in:)`` is called for every event, at up to millions per second;
///   expensive drawing belongs in ``tick(_:now:)``, which the session calls at most
///   ``preferredTickInterval`` apart.
/// - **Restore** whatever it changed (a hidden cursor, a terminal mode) in ``finish(_:now:)``,
///   which is called once.
///
/// ```swift
/// final class CountingRenderer: ActivityRenderer {
///     var ended = 0
///     func render(_ update: ActivityUpdate, in store: ActivityStore) {
///         if update.kind == .end { ended += 1 }
///     }
///     func finish(_ store: ActivityStore, now: Double) { print("\(ended) activities") }
/// }
/// ```
public protocol ActivityRenderer: AnyObject {
    /// How often the renderer wants ``tick(_:now:)``, in seconds; `nil` for never.
    var preferredTickInterval: Double? { get }

    /// The store has applied an event: `update` names the activity by its handle and holds what
    /// the event set; `store` holds the activity after the change.
    func render(_ update: ActivityUpdate, in store: ActivityStore)

    /// Output of the producer's that is not an event, for `stream`, exactly as it came: whole
    /// lines with their `\n`, or part of a line (the end of the output without a final `\n`, a
    /// piece of a line longer than 64 KiB, or what a command wrote so far). Written to a file or
    /// a pipe, it is written unchanged; drawn on a terminal, the renderer shows complete lines,
    /// sanitized (a `LineSplitter` keeps the unfinished one).
    func passthrough(_ bytes: [UInt8], to stream: StandardStream, in store: ActivityStore)

    /// A problem with the input: a malformed line, a broken protocol rule. Already counted in
    /// `store.summary`.
    func report(_ diagnostic: Diagnostic, in store: ActivityStore)

    /// A message about the rendering itself (a plugin that died), for the person watching.
    func notice(_ message: String, in store: ActivityStore)

    /// The timer fired: time to redraw. `now` is Unix seconds.
    func tick(_ store: ActivityStore, now: Double)

    /// The stream is over; every activity has ended. Draw the final state and restore what the
    /// renderer changed.
    func finish(_ store: ActivityStore, now: Double)
}

extension ActivityRenderer {
    public var preferredTickInterval: Double? { nil }
    public func passthrough(_ bytes: [UInt8], to stream: StandardStream, in store: ActivityStore) {}
    public func report(_ diagnostic: Diagnostic, in store: ActivityStore) {}
    public func notice(_ message: String, in store: ActivityStore) {}
    public func tick(_ store: ActivityStore, now: Double) {}
    public func finish(_ store: ActivityStore, now: Double) {}
}

/// The standard output or error stream of the process being rendered.
public enum StandardStream: Sendable, Hashable {
    case stdout, stderr

    /// The file descriptor of this process's stream: 1 or 2.
    public var fileDescriptor: Int32 { self == .stdout ? 1 : 2 }
}

/// A renderer that does nothing.
public final class NoOpRenderer: ActivityRenderer {
    public init() {}
    public func render(_ update: ActivityUpdate, in store: ActivityStore) {}
}
