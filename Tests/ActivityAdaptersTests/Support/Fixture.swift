import ActivityAdapters
import ActivityWire
import Foundation

/// A captured tool output under `Fixtures/`, and what an adapter made of it.
enum Fixture {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// Runs `input` through the adapter `name` in chunks of `chunkSize` bytes.
    static func adapt(
        _ input: [UInt8], with name: String, command: [String] = [], chunkSize: Int = 1 << 16,
        stream: AdapterStream = .standardError, exitStatus: Int32? = nil
    ) -> Adapted {
        let info = AdapterRegistry.named(name)!
        var pipeline = AdapterPipeline(adapter: info.makeAdapter(command: command), toolName: name, idPrefix: "t")
        var outputs: [AdapterOutput] = []
        var offset = 0
        while offset < input.count {
            let end = min(input.count, offset + chunkSize)
            outputs += pipeline.feed(input[offset..<end], from: stream)
            offset = end
        }
        outputs += pipeline.finish(exitStatus: exitStatus)
        return Adapted(outputs: outputs, failureMessage: pipeline.failureMessage)
    }
}

/// What came out of an adapter pipeline.
struct Adapted {
    var outputs: [AdapterOutput]
    var failureMessage: String?

    var events: [ActivityEvent] {
        outputs.compactMap { output -> ActivityEvent? in
            if case .event(let event) = output { return event }
            return nil
        }
    }

    /// Every passthrough byte, in order.
    var passthrough: [UInt8] {
        outputs.flatMap { output -> [UInt8] in
            if case .passthrough(let bytes, _) = output { return bytes }
            return []
        }
    }

    var passthroughText: String { String(decoding: passthrough, as: UTF8.self) }

    /// Each activity as it ended.
    struct Activity: Equatable, CustomStringConvertible {
        var title: String
        var status: ActivityEvent.Status?
        var completed: Double
        var total: Double?
        var unit: String?
        var error: String?
        var progressEvents = 0

        var description: String {
            "\(title) \(status?.rawValue ?? "open") \(completed)/\(total.map { "\($0)" } ?? "?") \(error ?? "")"
        }
    }

    var activities: [Activity] {
        var order: [ActivityID] = []
        var byID: [ActivityID: Activity] = [:]
        for event in events {
            switch event {
            case .begin(let begin):
                order.append(begin.id)
                byID[begin.id] = Activity(
                    title: begin.title, completed: begin.completed, total: begin.total, unit: begin.unit)
            case .progress(let progress):
                if let completed = progress.completed { byID[progress.id]?.completed = completed }
                if let total = progress.total?.value { byID[progress.id]?.total = total }
                byID[progress.id]?.progressEvents += 1
            case .end(let end):
                if let completed = end.completed { byID[end.id]?.completed = completed }
                if let total = end.total?.value { byID[end.id]?.total = total }
                byID[end.id]?.status = end.status
                byID[end.id]?.error = end.error
            case .log:
                break
            }
        }
        return order.compactMap { byID[$0] }
    }

    /// Whether every begun activity ended exactly once, after its begin, and the stream is valid.
    var isWellFormed: Bool {
        var open: Set<ActivityID> = []
        var ended: Set<ActivityID> = []
        for event in events {
            switch event {
            case .begin(let begin):
                guard !open.contains(begin.id), !ended.contains(begin.id) else { return false }
                open.insert(begin.id)
            case .progress(let progress):
                guard open.contains(progress.id) else { return false }
            case .end(let end):
                guard open.remove(end.id) != nil else { return false }
                ended.insert(end.id)
            case .log:
                break
            }
        }
        return open.isEmpty
    }
}

/// Writes an executable's text through a close-on-exec descriptor: a child another test spawns
/// meanwhile must not inherit it, or running the file fails with "Text file busy".
func writeProgram(_ text: String, to file: URL) throws {
    guard let stream = fopen(file.path, "wbe") else { throw POSIXError(.EIO) }
    let bytes = Array(text.utf8)
    let written = fwrite(bytes, 1, bytes.count, stream)
    guard fclose(stream) == 0, written == bytes.count else { throw POSIXError(.EIO) }
}
