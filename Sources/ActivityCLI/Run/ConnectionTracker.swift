import ActivityWire

/// Which reporting connection opened which activity, so that when a process goes away only its
/// own open activities end as abandoned.
///
/// Each connection's bytes are cut into lines (at most 64 KiB; longer ones are skipped with a
/// diagnostic) and decoded. Top-level activities are attached under the command's activity:
/// every connection comes from the command or one of its descendants.
struct ConnectionTracker {
    private struct Connection {
        var splitter = LineSplitter(maxLineBytes: WireLimits.maxAcceptedLineBytes)
        var lineNumber = 0
        var skippingOverlong = false
        /// Activities this connection opened and has not ended, in order of their begin.
        var open: [ActivityID] = []
    }

    let root: ActivityID
    private var connections: [Int32: Connection] = [:]
    private var owner: [ActivityID: Int32] = [:]
    /// Activities owned by a process rather than a connection (`activity emit` in a script).
    private var ownedByProcess: [Int32: [ActivityID]] = [:]
    private let decoder = ActivityEventDecoder()

    init(root: ActivityID) {
        self.root = root
    }

    var isEmpty: Bool { connections.isEmpty }
    /// Whether some activities wait for their owning process to go away.
    var watchesProcesses: Bool { !ownedByProcess.isEmpty }
    var descriptors: [Int32] { Array(connections.keys) }

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
        for id in connection.open.reversed() where owner[id] == fd {
            owner[id] = nil
            outputs.append(.event(.end(.init(id: id, status: .abandoned, message: "its reporter went away"))))
        }
        return outputs
    }

    /// Abandons the activities of owning processes that no longer exist (or of all of them,
    /// with `all`), the latest first.
    mutating func reapProcesses(all: Bool = false, isAlive: (Int32) -> Bool) -> [Output] {
        var outputs: [Output] = []
        for (pid, ids) in ownedByProcess.sorted(by: { $0.key < $1.key }) where all || !isAlive(pid) {
            ownedByProcess[pid] = nil
            for id in ids.reversed() {
                outputs.append(.event(.end(.init(id: id, status: .abandoned, message: "its reporter went away"))))
            }
        }
        return outputs
    }

    enum Output: Equatable {
        case event(ActivityEvent)
        case diagnostic(Diagnostic)
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
                            message: "a reporter sent a line longer than \(WireLimits.maxAcceptedLineBytes) bytes; skipped")))
            }
            return
        }
        if connection.skippingOverlong {
            connection.skippingOverlong = false
            return
        }
        connection.lineNumber += 1
        switch decoder.decode(piece.bytes, line: connection.lineNumber) {
        case .event(var event):
            switch event {
            case .begin(var begin):
                if begin.parent == nil { begin.parent = root }
                event = .begin(begin)
                if case .number(let pid)? = begin.attrs[EmitCommand.ownerAttribute], pid >= 1, pid <= Double(Int32.max) {
                    ownedByProcess[Int32(pid), default: []].append(begin.id)
                } else if owner[begin.id] == nil {
                    owner[begin.id] = fd
                    connection.open.append(begin.id)
                }
            case .end(let end):
                for (pid, ids) in ownedByProcess where ids.contains(end.id) {
                    ownedByProcess[pid] = ids.filter { $0 != end.id }
                    if ownedByProcess[pid]!.isEmpty { ownedByProcess[pid] = nil }
                }
                if let ownerFD = owner.removeValue(forKey: end.id) {
                    if ownerFD == fd {
                        connection.open.removeAll { $0 == end.id }
                    } else {
                        connections[ownerFD]?.open.removeAll { $0 == end.id }
                    }
                }
            case .progress, .log:
                break
            }
            outputs.append(.event(event))
        case .blank, .ignored(nil):
            break
        case .ignored(let diagnostic?), .text(let diagnostic), .invalid(let diagnostic):
            outputs.append(.diagnostic(diagnostic))
        }
    }
}
