import ActivityWire

/// Feeds a tool's output, as it arrives in chunks, through a ``ToolAdapter``: cuts it into lines
/// at `\n`, `\r` and `\r\n`, lets the adapter take its progress lines, and hands back the events
/// and, unchanged, every byte the adapter did not take. On a terminal it reads the command's
/// screen rows instead (``read(_:from:)``), through the same adapter.
///
/// Passthrough is byte-exact: the bytes of a line the adapter does not take, its terminator
/// included, leave exactly as they came. A bare `\r` just before a progress line belongs to it
/// (curl writes one before each update), and so does a `\n` just after one a `\r` ended (curl
/// ends its moving bar with it; on a pseudo-terminal it comes as `\r\n`). A line longer than
/// ``maxLineBytes`` passes through unread, so memory stays bounded whatever the input.
///
/// `\r\n` is one line end, read as `\n`: on a pseudo-terminal every `\n` a tool writes arrives
/// as `\r\n`, and the line before it stays on screen rather than being overwritten. A read may
/// cut the pair; the line before the `\r` is read at once all the same (a `\r` ends most
/// progress updates, which must not wait for the next chunk), and a `\n` that starts the next
/// chunk completes it (``ToolAdapter/readNewline(ending:_:)``).
///
/// ```swift
/// var pipeline = AdapterPipeline(adapter: GitAdapter(), toolName: "git")
/// for output in pipeline.feed(chunk, from: .standardError) + pipeline.finish(exitStatus: 0) {
///     switch output {
///     case .event(let event): display.handle(event)
///     case .passthrough(let bytes, let stream): write(bytes, to: stream)
///     }
/// }
/// ```
public struct AdapterPipeline {
    /// The longest line an adapter reads; longer ones pass through unread.
    public static let maxLineBytes = 65_536
    /// The longest unfinished line read before it ends (``ToolAdapter/readUnfinished(_:_:)``):
    /// a progress update is short, and a long line read again after every chunk would cost its
    /// length squared.
    static let maxUnfinishedBytes = 1024

    var adapter: any ToolAdapter
    var activities: AdaptedActivities
    private var output = StreamState()
    private var errors = StreamState()
    var finished = false
    /// What is kept of the command's screen between reads (``read(_:from:)``).
    var screen = ScreenState()

    /// What is kept of one stream between chunks.
    private struct StreamState {
        var pending: [UInt8] = []
        /// Bare `\r`s held until the next line shows whether they belong to progress.
        var heldReturns = 0
        /// Inside a line longer than the limit, or one released as a prompt: the rest passes
        /// through unread.
        var inOverlongLine = false
        /// The last line was progress ended by `\r`: an empty line ended by `\n` next belongs to it.
        var afterOverwrittenProgress = false
        /// The last chunk ended with the `\r` that ended this line: a `\n` starting the next
        /// chunk makes the pair `\r\n`.
        var splitReturn: SplitReturn?
    }

    /// The line a `\r` at the end of a chunk ended.
    private enum SplitReturn {
        /// An empty line: its `\r` is the last of the held ones.
        case empty
        /// A line the adapter consumed, as it would be read ended by `\n`.
        case consumed(AdapterLine)
        /// A line that passed through, or a held `\r` released meanwhile.
        case passed
    }

    /// How a line ended.
    private enum LineEnd {
        case newline, carriageReturn, carriageReturnNewline

        /// The terminator an adapter sees: `\r\n` ends a line as `\n` does.
        var terminator: UInt8 { self == .carriageReturn ? 0x0D : 0x0A }

        var bytes: [UInt8] {
            switch self {
            case .newline: [0x0A]
            case .carriageReturn: [0x0D]
            case .carriageReturnNewline: [0x0D, 0x0A]
            }
        }
    }

    /// - Parameters:
    ///   - adapter: the tool's adapter.
    ///   - toolName: the tool's name, the title of an activity that only carries an error.
    ///   - parent: the activity the tool's activities nest under (`activity run`'s command).
    ///   - idPrefix: makes the activities' ids unique: `PREFIX.1`, `PREFIX.2`… (random by default).
    public init(
        adapter: any ToolAdapter, toolName: String, parent: ActivityID? = nil, idPrefix: String? = nil
    ) {
        self.adapter = adapter
        let prefix = idPrefix ?? ActivityID.randomPrefix()
        self.activities = AdaptedActivities(toolName: toolName, parent: parent, idPrefix: prefix)
    }

    /// Whether the bytes the adapter does not take are left out of what ``feed(_:from:)`` gives:
    /// for a caller that has every byte already (`activity run` on a pseudo-terminal, whose
    /// screen model gets the whole output), only the events are wanted.
    public var dropsPassthrough: Bool {
        get { activities.dropsPassthrough }
        set { activities.dropsPassthrough = newValue }
    }

    /// The first error the tool printed (git's `fatal:` line, `curl: (22) …`), if any.
    public var failureMessage: String? { activities.failureMessage }

    /// Reads a chunk of the tool's output from `stream`; returns the events and passthrough bytes
    /// it completes, in order.
    public mutating func feed(_ bytes: some Collection<UInt8>, from stream: AdapterStream) -> [AdapterOutput] {
        guard !finished else { return [.passthrough(Array(bytes), stream)] }
        var state = stream == .standardOutput ? output : errors
        let chunk = Array(bytes)
        var start = 0
        if let split = state.splitReturn, !chunk.isEmpty {
            state.splitReturn = nil
            if chunk[0] == 0x0A {
                completeSplitReturn(split, stream, &state)
                start = 1
            }
        }
        var index = start
        while index < chunk.count {
            let byte = chunk[index]
            guard byte == 0x0A || byte == 0x0D else {
                index += 1
                continue
            }
            let next = index + 1
            if byte == 0x0D && next < chunk.count && chunk[next] == 0x0A {
                handle(chunk[start..<index], end: .carriageReturnNewline, stream, &state)
                index = next + 1
            } else {
                let split = handle(chunk[start..<index], end: byte == 0x0A ? .newline : .carriageReturn, stream, &state)
                if byte == 0x0D && next == chunk.count { state.splitReturn = split }
                index = next
            }
            start = index
        }
        append(chunk[start...], stream, &state)
        if !state.pending.isEmpty && !state.inOverlongLine && state.pending.count <= Self.maxUnfinishedBytes {
            adapter.readUnfinished(AdapterLine(bytes: state.pending[...], stream: stream, terminator: nil), &activities)
        }
        if stream == .standardOutput { output = state } else { errors = state }
        activities.flush()
        return activities.takeOutputs()
    }

    /// Ends the input: an unfinished last line is read, then the open activities end (see
    /// ``AdaptedActivities``). Later calls return nothing.
    ///
    /// - Parameters:
    ///   - exitStatus: how the tool exited (0 success; 128 + N killed by signal N), when known.
    ///   - signal: the name of the signal that killed the tool (`SIGINT`), when it was
    ///     killed; the open activities then fail as "killed by SIGINT", the words `activity run`
    ///     uses for the command.
    public mutating func finish(exitStatus: Int32?, signal: String? = nil) -> [AdapterOutput] {
        guard !finished else { return [] }
        let streams = finish(.standardOutput) + finish(.standardError)
        finished = true
        adapter.inputEnded(&activities)
        activities.flush()
        activities.finish(exitStatus: exitStatus, signal: signal)
        return streams + activities.takeOutputs()
    }

    /// Ends one stream (its pipe closed) without ending the activities.
    public mutating func finish(_ stream: AdapterStream) -> [AdapterOutput] {
        var state = stream == .standardOutput ? output : errors
        finishStream(stream, &state)
        if stream == .standardOutput { output = state } else { errors = state }
        activities.flush()
        return activities.takeOutputs()
    }

    private mutating func finishStream(_ stream: AdapterStream, _ state: inout StreamState) {
        if !state.pending.isEmpty && !state.inOverlongLine && state.pending.count <= Self.maxUnfinishedBytes {
            let line = state.pending
            state.pending = []
            read(line[...], end: nil, stream, &state)
        } else {
            activities.passthrough(state.pending[...], stream)
            state.pending = []
        }
        releaseReturns(stream, &state)
        state.inOverlongLine = false
        state.splitReturn = nil
    }

    /// A `\n` began this chunk after a `\r` ended the last one: the two were `\r\n`.
    private mutating func completeSplitReturn(
        _ split: SplitReturn, _ stream: AdapterStream, _ state: inout StreamState
    ) {
        switch split {
        case .empty where state.heldReturns > 0:
            state.heldReturns -= 1
            read([], end: .carriageReturnNewline, stream, &state)
        case .consumed(let line):
            state.afterOverwrittenProgress = false
            adapter.readNewline(ending: line, &activities)
        case .empty, .passed:
            activities.passthrough([0x0A], stream)
        }
    }

    /// Whether an unfinished line of `stream` is held, waiting for its end.
    public func holdsUnfinishedLine(_ stream: AdapterStream) -> Bool {
        let state = stream == .standardOutput ? output : errors
        return !state.pending.isEmpty && !state.inOverlongLine
    }

    /// The tool has written nothing for a while after an unfinished line: unless the adapter
    /// takes that line as its progress, it is a prompt waiting for an answer (`Proceed (Y/n)? `),
    /// so it passes through now, and the rest of its line passes unread. Returns what passes.
    public mutating func releaseUnfinishedLine(_ stream: AdapterStream) -> [AdapterOutput] {
        var state = stream == .standardOutput ? output : errors
        guard !finished, !state.pending.isEmpty, !state.inOverlongLine else { return [] }
        // Asked of copies, which are thrown away: whether the line, were it to end here, is progress.
        var trial = adapter
        var trialActivities = activities
        let line = AdapterLine(bytes: state.pending[...], stream: stream, terminator: 0x0A)
        guard !trial.read(line, &trialActivities) else { return [] }
        releaseReturns(stream, &state)
        state.afterOverwrittenProgress = false
        activities.passthrough(state.pending[...], stream)
        state.pending = []
        state.inOverlongLine = true
        if stream == .standardOutput { output = state } else { errors = state }
        activities.flush()
        return activities.takeOutputs()
    }

    /// Keeps a piece without a terminator for the next chunk, up to the line limit.
    private mutating func append(_ piece: ArraySlice<UInt8>, _ stream: AdapterStream, _ state: inout StreamState) {
        guard !piece.isEmpty else { return }
        if state.inOverlongLine {
            activities.passthrough(piece, stream)
            return
        }
        state.afterOverwrittenProgress = false
        if state.pending.count + piece.count > Self.maxLineBytes {
            releaseReturns(stream, &state)
            activities.passthrough(state.pending[...], stream)
            activities.passthrough(piece, stream)
            state.pending = []
            state.inOverlongLine = true
            return
        }
        state.pending.append(contentsOf: piece)
    }

    /// Reads the line that `piece` ends; returns what a `\n` after its end would complete.
    @discardableResult
    private mutating func handle(
        _ piece: ArraySlice<UInt8>, end: LineEnd, _ stream: AdapterStream, _ state: inout StreamState
    ) -> SplitReturn {
        if state.inOverlongLine {
            activities.passthrough(piece, stream)
            activities.passthrough(end.bytes[...], stream)
            state.inOverlongLine = false
            return .passed
        }
        append(piece, stream, &state)
        if state.inOverlongLine {
            activities.passthrough(end.bytes[...], stream)
            state.inOverlongLine = false
            return .passed
        }
        let line = state.pending
        state.pending.removeAll(keepingCapacity: true)
        if line.isEmpty && end == .carriageReturn {
            state.heldReturns += 1
            if state.heldReturns > 16 {
                releaseReturns(stream, &state)
                return .passed
            }
            return .empty
        }
        guard read(line[...], end: end, stream, &state) else { return .passed }
        return .consumed(AdapterLine(bytes: line[...], stream: stream, terminator: 0x0A))
    }

    /// Lets the adapter read a line; returns whether it consumed it.
    @discardableResult
    private mutating func read(
        _ line: ArraySlice<UInt8>, end: LineEnd?, _ stream: AdapterStream, _ state: inout StreamState
    ) -> Bool {
        let consumed =
            line.isEmpty
            ? end?.terminator == 0x0A
                && (state.afterOverwrittenProgress && state.heldReturns == 0 || adapter.readEmptyLine(&activities))
            : adapter.read(AdapterLine(bytes: line, stream: stream, terminator: end?.terminator), &activities)
        if consumed {
            state.heldReturns = 0
            state.afterOverwrittenProgress = !line.isEmpty && end == .carriageReturn
            return true
        }
        releaseReturns(stream, &state)
        state.afterOverwrittenProgress = false
        activities.passthrough(line, stream)
        if let end { activities.passthrough(end.bytes[...], stream) }
        return false
    }

    private mutating func releaseReturns(_ stream: AdapterStream, _ state: inout StreamState) {
        guard state.heldReturns > 0 else { return }
        activities.passthrough(ArraySlice(repeating: 0x0D, count: state.heldReturns), stream)
        state.heldReturns = 0
    }
}
