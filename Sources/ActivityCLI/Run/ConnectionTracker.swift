import ActivityPOSIX
import ActivityRendering
import ActivityWire

/// The reporters' connections under `activity run`: each connection's bytes cut into lines and
/// decoded, every event handed to the display with the connection it came on, so that the
/// display's store lets a reporter change only what it began (``ActivityOwner``), and when a
/// reporter goes away only its own open activities end as abandoned.
///
/// Each line is at most 64 KiB (longer ones are skipped with a diagnostic) and is decoded in
/// place: a `progress` is checked and folded with the one lookup that finds its activity.
/// Top-level activities are attached under the command's activity: every connection comes from
/// the command or one of its descendants.
///
/// The trust rule: a `progress` or `end` is taken only from the connection that began the
/// activity. Activities that `activity emit` begins belong to the calling script's process, not
/// to a connection (each `emit` is a connection of its own), so any connection may change them.
/// The run's own activity belongs to no reporter. Everything else is skipped with a `not-owner`
/// diagnostic.
///
/// The owner is also where a cancel goes back (``cancel(_:in:)``): a control line on the
/// connection that began the activity, or, for `activity emit`'s activities, the signal the
/// script chose. A line never names whom to signal: the owner a `begin` claims in `attrs` is
/// taken only when ``ProcessTree`` finds it a process of the run and an ancestor of the
/// reporter's own process (`SO_PEERCRED`), else the activity is its connection's; and it is
/// asked again before each signal, as the pid may be another process's by then.
struct ConnectionTracker {
    /// Where a cancel for an activity goes.
    enum CancelRoute: Equatable {
        /// Write this control line to the connection.
        case line([UInt8], to: Int32)
        /// Send this signal to the script's process.
        case signal(Int32, to: Int32)
        /// Nowhere: not cancellable, not open, not a reporter's, without a channel, or sent before.
        case ignored
    }

    private struct Connection {
        var splitter = LineSplitter(maxLineBytes: WireLimits.maxAcceptedLineBytes)
        var lineNumber = 0
        var skippingOverlong = false
        /// When it was accepted, counted from 0.
        var order = 0
    }

    let root: ActivityID
    private let rootBytes: [UInt8]
    private var connections: [Int32: Connection] = [:]
    /// Connections accepted so far.
    private var accepted = 0
    /// The processes of `activity emit` callers that own activities.
    private var processes: Set<Int32> = []
    /// The activities a cancel was sent to, by their begin's sequence number (an id may begin
    /// again): each is sent one at most.
    private var cancelled: Set<Int> = []
    /// Cancels that went nowhere (``CancelRoute/ignored``).
    private(set) var ignoredCancels = 0
    private let decoder = ActivityEventDecoder()
    /// The processes a cancel may signal.
    var tree: ProcessTree

    init(root: ActivityID, tree: ProcessTree) {
        self.root = root
        self.tree = tree
        rootBytes = Array(root.rawValue.utf8)
    }

    var isEmpty: Bool { connections.isEmpty }
    /// Whether some activities wait for their owning process to go away.
    var watchesProcesses: Bool { !processes.isEmpty }
    /// The open connections, oldest first: read in that order, a script's `emit begin` (its
    /// reporter gone by then) comes before the `emit end` that followed it on a newer
    /// connection, whichever descriptor number each was given.
    var descriptors: [Int32] { connections.sorted { $0.value.order < $1.value.order }.map(\.key) }

    mutating func open(_ fd: Int32) {
        connections[fd] = Connection(order: accepted)
        accepted += 1
    }

    /// Feeds bytes read from `fd`; what they hold goes to `display`.
    mutating func receive(_ chunk: UnsafeRawBufferPointer, from fd: Int32, into session: RenderSession) {
        guard var connection = connections[fd] else { return }
        var pieces: [LineSplitter.Piece] = []
        connection.splitter.feed(chunk) { pieces.append($0) }
        for piece in pieces { take(piece, fd: fd, connection: &connection, into: session) }
        connections[fd] = connection
    }

    /// The connection closed (or is being closed): a final line without newline is still read,
    /// then every activity it left open ends as abandoned, the latest first.
    mutating func close(_ fd: Int32, into session: RenderSession) {
        guard var connection = connections.removeValue(forKey: fd) else { return }
        var pieces: [LineSplitter.Piece] = []
        connection.splitter.finish { pieces.append($0) }
        for piece in pieces { take(piece, fd: fd, connection: &connection, into: session) }
        _ = session.abandon(ownedBy: .connection(fd), at: SystemClock.unixTimestamp())
    }

    /// Abandons the activities of owning processes that no longer exist (or of all of them,
    /// with `all`), the latest first.
    mutating func reapProcesses(all: Bool = false, isAlive: (Int32) -> Bool, into session: RenderSession) {
        let gone = processes.filter { all || !isAlive($0) }
        processes.subtract(gone)
        for pid in gone { _ = session.abandon(ownedBy: .process(pid), at: SystemClock.unixTimestamp()) }
    }

    /// Where a cancel the person asked for must go, at most once per activity. The run's own
    /// activity is not a reporter's: ``CancelRoute/ignored`` (the caller interrupts the command).
    mutating func cancel(_ id: ActivityID, in session: RenderSession) -> CancelRoute {
        guard let activity = session.activity(id), activity.isRunning, activity.cancellable,
            !cancelled.contains(activity.sequence)
        else {
            ignoredCancels += 1
            return .ignored
        }
        let route: CancelRoute
        switch activity.owner {
        case .connection(let fd)?: route = .line(ControlMessage.cancel(id).encoded(), to: fd)
        case .process(let pid)? where tree.contains(pid):
            route =
                Self.signal(activity.attrs[EmitCommand.cancelSignalAttribute]).map { .signal($0, to: pid) } ?? .ignored
        case .process?: route = .ignored
        case nil: route = .ignored
        }
        guard route != .ignored else {
            ignoredCancels += 1
            return .ignored
        }
        cancelled.insert(activity.sequence)
        return route
    }

    private mutating func take(
        _ piece: LineSplitter.Piece, fd: Int32, connection: inout Connection, into session: RenderSession
    ) {
        if !piece.isComplete {
            if !connection.skippingOverlong {
                connection.lineNumber += 1
                connection.skippingOverlong = true
                session.report(
                    Diagnostic(
                        line: connection.lineNumber, code: .lineTooLong,
                        message: "a reporter sent a line longer than \(WireLimits.maxAcceptedLineBytes) bytes; skipped"),
                    sender: fd)
            }
            return
        }
        if connection.skippingOverlong {
            connection.skippingOverlong = false
            return
        }
        connection.lineNumber += 1
        let line = connection.lineNumber
        piece.bytes.withUnsafeBufferPointer { bytes in
            switch decoder.decodeInPlace(bytes, line: line) {
            case .event(let event):
                take(event, line: line, fd: fd, into: session)
            case .other(.blank), .other(.ignored(nil)), .other(.event):
                break
            case .other(.ignored(let diagnostic?)), .other(.text(let diagnostic)), .other(.invalid(let diagnostic)):
                session.report(diagnostic, sender: fd)
            }
        }
    }

    /// One event: a `begin` made whole (it is attached under the run's activity and its owner
    /// read from `attrs`), anything else handed on as decoded.
    private mutating func take(_ event: LineEvent, line: Int, fd: Int32, into session: RenderSession) {
        // A reporter may log about the run's activity, not change it.
        if event.kind != .log, let id = event.id, isRoot(id, in: event) {
            let type =
                switch event.kind {
                case .begin: "begin"
                case .progress: "progress"
                case .end, .log: "end"
                }
            return session.report(notOwner(root, type, line: line), sender: fd)
        }
        guard event.kind == .begin, case .begin(var begin) = event.event() else {
            _ = session.handle(event, line: line, sender: fd)
            return
        }
        if begin.parent == nil { begin.parent = root }
        var owner = ActivityOwner.connection(fd)
        if case .number(let number)? = begin.attrs[EmitCommand.ownerAttribute] {
            if let pid = Int32(exactly: number), tree.verifies(owner: pid, claimedOn: fd) {
                owner = .process(pid)
                processes.insert(pid)
            } else {
                session.report(foreignOwner(number, line: line), sender: fd)
            }
        }
        _ = session.handle(.begin(begin), line: line, sender: fd, owner: owner)
    }

    /// Whether the id is the run's own: its bytes in the line, or its text when escaped.
    private func isRoot(_ id: LineEvent.Text, in event: LineEvent) -> Bool {
        event.withBytes(of: id) { $0.elementsEqual(rootBytes) }
    }

    /// A signal number named in `attrs`: one a script can trap.
    private static func signal(_ value: AttributeValue?) -> Int32? {
        guard case .number(let number)? = value, let signal = Int32(exactly: number),
            EmitCommand.cancelSignals.values.contains(signal)
        else { return nil }
        return signal
    }

    private func foreignOwner(_ pid: Double, line: Int) -> Diagnostic {
        Diagnostic(
            line: line, code: .notOwner,
            message: "a reporter named process \(DecimalText.significant(pid)) as its activity's owner, "
                + "which is not it nor its parent in this run; the activity is its connection's")
    }

    private func notOwner(_ id: ActivityID, _ type: String, line: Int) -> Diagnostic {
        Diagnostic(
            line: line, code: .notOwner,
            message: "a reporter sent \(type) for the run's own activity (\(id.rawValue)); skipped")
    }
}
