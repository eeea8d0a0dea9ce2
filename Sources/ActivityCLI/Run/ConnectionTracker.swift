import ActivityRendering
import ActivityWire

/// Which reporter opened which activity under `activity run`, so that when a process goes away
/// only its own open activities end as abandoned, and no reporter touches another's.
///
/// Each connection's bytes are cut into lines (at most 64 KiB; longer ones are skipped with a
/// diagnostic) and decoded. Top-level activities are attached under the command's activity:
/// every connection comes from the command or one of its descendants.
///
/// The trust rule: a `progress` or `end` is taken only from the connection that began the
/// activity. Activities that `activity emit` begins belong to the calling script's process, not
/// to a connection (each `emit` is a connection of its own), so any connection may change them.
/// The run's own activity belongs to no reporter. Everything else is skipped with a `not-owner`
/// diagnostic.
///
/// Every event costs one dictionary lookup; memory is bounded by the store's limit on open
/// activities (a `begin` past it is passed on untracked, and the store drops it).
///
/// The owner is also where a cancel goes back (``cancel(_:)``): a control line on the connection
/// that began the activity, or, for `activity emit`'s activities, the signal the script chose.
struct ConnectionTracker {
    /// Who may change an activity, and who takes it down when they go.
    private enum Owner {
        case connection(Int32)
        case process(Int32)
    }

    /// An open activity: its owner, the order of its begin, and how a cancel reaches it.
    private struct Entry {
        var owner: Owner
        var order: Int
        var cancellable: Bool
        /// For an `activity emit` activity: the signal its script asked for at `begin`.
        var cancelSignal: Int32?
        var cancelSent = false
    }

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
    }

    let root: ActivityID
    private let maxTracked: Int
    private var connections: [Int32: Connection] = [:]
    /// Each open activity's owner and the order of its begin (abandoned ones end latest first).
    private var owners: [ActivityID: Entry] = [:]
    private var processes: Set<Int32> = []
    private var begun = 0
    /// Cancels that went nowhere (``CancelRoute/ignored``).
    private(set) var ignoredCancels = 0
    private let decoder = ActivityEventDecoder()

    init(root: ActivityID, maxTracked: Int = ActivityStore.Limits().maxOpen) {
        self.root = root
        self.maxTracked = maxTracked
    }

    var isEmpty: Bool { connections.isEmpty }
    /// Whether some activities wait for their owning process to go away.
    var watchesProcesses: Bool { !processes.isEmpty }
    var descriptors: [Int32] { Array(connections.keys) }
    /// How many activities are tracked (bounded by `maxTracked`).
    var trackedCount: Int { owners.count }

    mutating func open(_ fd: Int32) {
        connections[fd] = Connection()
    }

    /// Feeds bytes read from `fd` and returns what the display must see.
    mutating func receive(_ chunk: UnsafeRawBufferPointer, from fd: Int32) -> [Output] {
        guard var connection = connections[fd] else { return [] }
        var outputs: [Output] = []
        var pieces: [LineSplitter.Piece] = []
        connection.splitter.feed(chunk) { pieces.append($0) }
        for piece in pieces { take(piece, fd: fd, connection: &connection, into: &outputs) }
        connections[fd] = connection
        return outputs
    }

    /// The connection closed (or is being closed): a final line without newline is still read,
    /// then every activity it left open ends as abandoned, the latest first.
    mutating func close(_ fd: Int32) -> [Output] {
        guard var connection = connections.removeValue(forKey: fd) else { return [] }
        var outputs: [Output] = []
        var pieces: [LineSplitter.Piece] = []
        connection.splitter.finish { pieces.append($0) }
        for piece in pieces { take(piece, fd: fd, connection: &connection, into: &outputs) }
        outputs += abandon {
            if case .connection(fd) = $0 { true } else { false }
        }
        return outputs
    }

    /// Abandons the activities of owning processes that no longer exist (or of all of them,
    /// with `all`), the latest first.
    mutating func reapProcesses(all: Bool = false, isAlive: (Int32) -> Bool) -> [Output] {
        let gone = processes.filter { all || !isAlive($0) }
        guard !gone.isEmpty else { return [] }
        processes.subtract(gone)
        return abandon {
            if case .process(let pid) = $0 { gone.contains(pid) } else { false }
        }
    }

    /// Where a cancel the person asked for must go, at most once per activity. The run's own
    /// activity is not a reporter's: ``CancelRoute/ignored`` (the caller interrupts the command).
    mutating func cancel(_ id: ActivityID) -> CancelRoute {
        guard var entry = owners[id], entry.cancellable, !entry.cancelSent else {
            ignoredCancels += 1
            return .ignored
        }
        let route: CancelRoute
        switch entry.owner {
        case .connection(let fd): route = .line(ControlMessage.cancel(id).encoded(), to: fd)
        case .process(let pid): route = entry.cancelSignal.map { .signal($0, to: pid) } ?? .ignored
        }
        guard route != .ignored else {
            ignoredCancels += 1
            return .ignored
        }
        entry.cancelSent = true
        owners[id] = entry
        return route
    }

    enum Output: Equatable {
        case event(ActivityEvent)
        case diagnostic(Diagnostic)
    }

    /// Ends the activities whose owner matches as abandoned, the latest begun first. Runs when a
    /// reporter goes away, not per event, so a pass over what is open is fine here.
    private mutating func abandon(where matches: (Owner) -> Bool) -> [Output] {
        let ids = owners.filter { matches($0.value.owner) }.sorted { $0.value.order > $1.value.order }.map(\.key)
        for id in ids { owners[id] = nil }
        return ids.map { .event(.end(.init(id: $0, status: .abandoned, message: "its reporter went away"))) }
    }

    private mutating func take(
        _ piece: LineSplitter.Piece, fd: Int32, connection: inout Connection, into outputs: inout [Output]
    ) {
        if !piece.isComplete {
            if !connection.skippingOverlong {
                connection.lineNumber += 1
                connection.skippingOverlong = true
                outputs.append(
                    .diagnostic(
                        Diagnostic(
                            line: connection.lineNumber, code: .lineTooLong,
                            message:
                                "a reporter sent a line longer than \(WireLimits.maxAcceptedLineBytes) bytes; skipped"))
                )
            }
            return
        }
        if connection.skippingOverlong {
            connection.skippingOverlong = false
            return
        }
        connection.lineNumber += 1
        let line = connection.lineNumber
        switch decoder.decode(piece.bytes, line: line) {
        case .event(var event):
            switch event {
            case .begin(var begin):
                if begin.parent == nil { begin.parent = root }
                event = .begin(begin)
                if begin.id == root {
                    outputs.append(.diagnostic(notOwner(begin.id, "begin", line: line)))
                    return
                }
                if owners[begin.id] == nil && owners.count < maxTracked {
                    begun += 1
                    if case .number(let pid)? = begin.attrs[EmitCommand.ownerAttribute], pid >= 1,
                        pid <= Double(Int32.max)
                    {
                        owners[begin.id] = Entry(
                            owner: .process(Int32(pid)), order: begun, cancellable: begin.cancellable,
                            cancelSignal: Self.signal(begin.attrs[EmitCommand.cancelSignalAttribute]))
                        processes.insert(Int32(pid))
                    } else {
                        owners[begin.id] = Entry(owner: .connection(fd), order: begun, cancellable: begin.cancellable)
                    }
                }
            case .progress(let progress):
                guard mayChange(progress.id, from: fd) else {
                    outputs.append(.diagnostic(notOwner(progress.id, "progress", line: line)))
                    return
                }
            case .end(let end):
                guard mayChange(end.id, from: fd) else {
                    outputs.append(.diagnostic(notOwner(end.id, "end", line: line)))
                    return
                }
                owners[end.id] = nil
            case .log:
                break
            }
            outputs.append(.event(event))
        case .blank, .ignored(nil):
            break
        case .ignored(let diagnostic?), .text(let diagnostic), .invalid(let diagnostic):
            outputs.append(.diagnostic(diagnostic))
        }
    }

    /// A signal number named in `attrs`: one a script can trap.
    private static func signal(_ value: AttributeValue?) -> Int32? {
        guard case .number(let number)? = value, let signal = Int32(exactly: number),
            EmitCommand.cancelSignals.values.contains(signal)
        else { return nil }
        return signal
    }

    /// Whether the connection `fd` may send `progress` or `end` for `id`. Ids nobody tracks pass,
    /// so the store diagnoses them (unknown, already ended, or dropped past its limit).
    private func mayChange(_ id: ActivityID, from fd: Int32) -> Bool {
        if id == root { return false }
        switch owners[id]?.owner {
        case .connection(let owner)?: return owner == fd
        case .process?, nil: return true
        }
    }

    private func notOwner(_ id: ActivityID, _ type: String, line: Int) -> Diagnostic {
        let whose = id == root ? "the run's own activity" : "an activity another reporter began"
        return Diagnostic(
            line: line, code: .notOwner, message: "a reporter sent \(type) for \(whose) (\(id.rawValue)); skipped")
    }
}
