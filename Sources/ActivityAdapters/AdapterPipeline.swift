import ActivityWire

/// Feeds a tool's output, as it arrives in chunks, through a ``ToolAdapter``: cuts it into lines
/// at `\n` and `\r`, lets the adapter take its progress lines, and hands back the events and,
/// unchanged, every byte the adapter did not take.
///
/// Passthrough is byte-exact: the bytes of a line the adapter does not take, its terminator
/// included, leave exactly as they came. A bare `\r` just before a progress line belongs to it
/// (curl writes one before each update), and so does the `\n` just after one (dd ends its last
/// update with it). A line longer than ``maxLineBytes`` passes through unread, so memory stays
/// bounded whatever the input.
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

    private var adapter: any ToolAdapter
    private var activities: AdaptedActivities
    private var output = StreamState()
    private var errors = StreamState()
    private var finished = false

    /// What is kept of one stream between chunks.
    private struct StreamState {
        var pending: [UInt8] = []
        /// Bare `\r`s held until the next line shows whether they belong to progress.
        var heldReturns = 0
        /// Inside a line longer than the limit: the rest passes through unread.
        var inOverlongLine = false
        /// The last line was progress ended by `\r`: a bare `\n` next belongs to it.
        var afterOverwrittenProgress = false
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
        let prefix = idPrefix ?? Self.randomPrefix()
        self.activities = AdaptedActivities(toolName: toolName, parent: parent, idPrefix: prefix)
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
        for index in chunk.indices where chunk[index] == 0x0A || chunk[index] == 0x0D {
            handle(chunk[start..<index], terminator: chunk[index], stream, &state)
            start = index + 1
        }
        append(chunk[start...], stream, &state)
        if !state.pending.isEmpty && !state.inOverlongLine {
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
        if !state.pending.isEmpty && !state.inOverlongLine {
            let line = state.pending
            state.pending = []
            read(line[...], terminator: nil, stream, &state)
        } else {
            activities.passthrough(state.pending[...], stream)
            state.pending = []
        }
        releaseReturns(stream, &state)
        state.inOverlongLine = false
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

    private mutating func handle(
        _ piece: ArraySlice<UInt8>, terminator: UInt8, _ stream: AdapterStream, _ state: inout StreamState
    ) {
        if state.inOverlongLine {
            activities.passthrough(piece, stream)
            activities.passthrough([terminator], stream)
            state.inOverlongLine = false
            return
        }
        append(piece, stream, &state)
        if state.inOverlongLine {
            activities.passthrough([terminator], stream)
            state.inOverlongLine = false
            return
        }
        let line = state.pending
        state.pending.removeAll(keepingCapacity: true)
        if line.isEmpty {
            if terminator == 0x0D {
                state.heldReturns += 1
                if state.heldReturns > 16 { releaseReturns(stream, &state) }
                return
            }
            if state.afterOverwrittenProgress && state.heldReturns == 0 {
                state.afterOverwrittenProgress = false
                return
            }
        }
        read(line[...], terminator: terminator, stream, &state)
    }

    private mutating func read(
        _ line: ArraySlice<UInt8>, terminator: UInt8?, _ stream: AdapterStream, _ state: inout StreamState
    ) {
        let consumed =
            line.isEmpty
            ? terminator == 0x0A && adapter.readEmptyLine(&activities)
            : adapter.read(AdapterLine(bytes: line, stream: stream, terminator: terminator), &activities)
        if consumed {
            state.heldReturns = 0
            state.afterOverwrittenProgress = terminator == 0x0D
            return
        }
        releaseReturns(stream, &state)
        state.afterOverwrittenProgress = false
        activities.passthrough(line, stream)
        if let terminator { activities.passthrough([terminator], stream) }
    }

    private mutating func releaseReturns(_ stream: AdapterStream, _ state: inout StreamState) {
        guard state.heldReturns > 0 else { return }
        activities.passthrough(ArraySlice(repeating: 0x0D, count: state.heldReturns), stream)
        state.heldReturns = 0
    }

    /// 64 random bits as 16 hex digits, the per-process id prefix of §4.
    static func randomPrefix() -> String {
        let hex = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
