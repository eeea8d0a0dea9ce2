import ActivityAdapters
import ActivityPOSIX
import ActivityRendering
import ActivityWire

/// What `activity run` and `activity adapt` feed a tool's output through: a built-in adapter
/// pipeline or an external `activity-adapt-NAME`. Bytes in; events and untouched passthrough
/// out, in order.
protocol OutputAdapter: AnyObject {
    /// Reads a chunk of the tool's output from `stream`.
    func feed(_ bytes: UnsafeRawBufferPointer, from stream: AdapterStream) -> [AdapterOutput]
    /// The tool's `stream` closed.
    func finish(_ stream: AdapterStream) -> [AdapterOutput]
    /// The tool's output has ended: open activities end, by `exitStatus` when it is known;
    /// `signal` names the signal that killed the tool, when one did.
    func finish(exitStatus: Int32?, signal: String?) -> [AdapterOutput]
    /// The error the tool printed, for the command's own failure.
    var failureMessage: String? { get }
    /// Whether the tool reports on standard output, which is then read even when it is data.
    var reportsOnStandardOutput: Bool { get }
    /// Whether an unfinished line of `stream` is held back, waiting for its end.
    func holdsUnfinishedLine(_ stream: AdapterStream) -> Bool
    /// The tool wrote nothing more for a while: an unfinished line that is not progress (a
    /// prompt) passes through now.
    func releaseUnfinishedLine(_ stream: AdapterStream) -> [AdapterOutput]
    /// From now on only events are wanted: the caller has every byte of the output already.
    func dropPassthrough()
    /// Whether the adapter reads the command's screen rows (``readScreen(_:)``) rather than its
    /// bytes on a pseudo-terminal: built-in ones do, an external one reads bytes only.
    var readsScreen: Bool { get }
    /// Reads what changed on the command's screen instead of its bytes.
    func readScreen(_ rows: ScreenRows) -> [AdapterOutput]
    /// The numbers of the rows the command redraws that ``readScreen(_:)`` last took as progress.
    var progressRows: Set<Int> { get }
}

extension OutputAdapter {
    /// An adapter that cannot leave its passthrough out gives it all the same.
    func dropPassthrough() {}
    func holdsUnfinishedLine(_ stream: AdapterStream) -> Bool { false }
    func releaseUnfinishedLine(_ stream: AdapterStream) -> [AdapterOutput] { [] }
    var readsScreen: Bool { false }
    func readScreen(_ rows: ScreenRows) -> [AdapterOutput] { [] }
    var progressRows: Set<Int> { [] }
}

/// A built-in adapter pipeline as an ``OutputAdapter``.
final class BuiltInOutputAdapter: OutputAdapter {
    private var pipeline: AdapterPipeline
    let reportsOnStandardOutput: Bool

    init(_ pipeline: AdapterPipeline, reportsOnStandardOutput: Bool) {
        self.pipeline = pipeline
        self.reportsOnStandardOutput = reportsOnStandardOutput
    }

    func dropPassthrough() { pipeline.dropsPassthrough = true }

    func feed(_ bytes: UnsafeRawBufferPointer, from stream: AdapterStream) -> [AdapterOutput] {
        pipeline.feed(bytes, from: stream)
    }

    func finish(_ stream: AdapterStream) -> [AdapterOutput] { pipeline.finish(stream) }

    var readsScreen: Bool { true }

    func readScreen(_ rows: ScreenRows) -> [AdapterOutput] { pipeline.read(rows) }

    var progressRows: Set<Int> { pipeline.progressRows }

    func finish(exitStatus: Int32?, signal: String?) -> [AdapterOutput] {
        pipeline.finish(exitStatus: exitStatus, signal: signal)
    }

    var failureMessage: String? { pipeline.failureMessage }

    func holdsUnfinishedLine(_ stream: AdapterStream) -> Bool { pipeline.holdsUnfinishedLine(stream) }

    func releaseUnfinishedLine(_ stream: AdapterStream) -> [AdapterOutput] {
        pipeline.releaseUnfinishedLine(stream)
    }
}

/// Zig's `ZIG_PROGRESS` frames as an ``OutputAdapter``: bytes of a binary stream, not lines.
final class ZigProgressOutputAdapter: OutputAdapter {
    private var adapter: ZigProgressAdapter

    init(_ adapter: ZigProgressAdapter) { self.adapter = adapter }

    func feed(_ bytes: UnsafeRawBufferPointer, from stream: AdapterStream) -> [AdapterOutput] {
        adapter.feed(bytes)
    }

    func finish(_ stream: AdapterStream) -> [AdapterOutput] { [] }

    func finish(exitStatus: Int32?, signal: String?) -> [AdapterOutput] {
        adapter.finish(exitStatus: exitStatus, signal: signal)
    }

    var failureMessage: String? { adapter.failureMessage }

    var reportsOnStandardOutput: Bool { true }
}

/// Finds the adapter called `name`: a built-in one, else `activity-adapt-NAME` on `PATH`.
enum AdapterChoice {
    enum Failure: Error {
        case invalidName(String)
        case notFound(String)
        case cannotStart(String)

        var message: String {
            switch self {
            case .invalidName(let name):
                "invalid adapter name '\(name)': use letters, digits, '.', '_' and '-'"
            case .notFound(let name):
                "no adapter '\(name)': not built in (see 'activity adapt --list') and no activity-adapt-\(name) on PATH"
            case .cannotStart(let message): message
            }
        }
    }

    /// The adapter `name` for `command` (the tool's command line, when known).
    static func make(
        _ name: String, command: [String], parent: ActivityID?, idPrefix: String
    ) throws(Failure) -> any OutputAdapter {
        if let info = AdapterRegistry.named(name), info.readsBinaryStream {
            return ZigProgressOutputAdapter(
                ZigProgressAdapter(
                    toolName: command.first.map(programName) ?? info.name, parent: parent, idPrefix: idPrefix))
        }
        if let info = AdapterRegistry.named(name) {
            let pipeline = AdapterPipeline(
                adapter: info.makeAdapter(command: command), toolName: command.first.map(programName) ?? info.name,
                parent: parent, idPrefix: idPrefix)
            return BuiltInOutputAdapter(pipeline, reportsOnStandardOutput: info.reportsOnStandardOutput)
        }
        guard !name.isEmpty,
            name.utf8.allSatisfy({ ActivityID.isValid(CollectionOfOne($0)) && $0 != UInt8(ascii: "/") })
        else { throw .invalidName(name) }
        let program = "activity-adapt-" + name
        guard
            let path = ProcessSpawn.executable(
                program, searching: SystemCall.environment("PATH") ?? ProcessSpawn.defaultPath)
        else { throw .notFound(name) }
        do throws(ExternalAdapter.Failure) {
            return try ExternalAdapter(name: name, path: path, parent: parent)
        } catch {
            throw .cannotStart(error.message)
        }
    }

    static func programName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }
}
