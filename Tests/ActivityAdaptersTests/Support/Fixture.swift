import ActivityAdapters
import ActivityWire
import Foundation
import TestSupport

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
        let beforeInputEnded = outputs.count
        outputs += pipeline.finish(exitStatus: exitStatus)
        return Adapted(outputs: outputs, failureMessage: pipeline.failureMessage, beforeInputEnded: beforeInputEnded)
    }
}

/// What came out of an adapter pipeline.
struct Adapted {
    var outputs: [AdapterOutput]
    var failureMessage: String?
    /// How many of ``outputs`` came before the input ended (before the adapter's `finish`), where known.
    var beforeInputEnded: Int?

    /// The activities that ended before the input did, in the order they began, as they ended.
    var endedBeforeInputEnded: [String] {
        let before = Adapted(outputs: Array(outputs.prefix(beforeInputEnded ?? outputs.count)))
        return before.activities.filter { $0.status != nil }.map(\.description)
    }

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
    typealias Activity = EndedActivity

    var activities: [Activity] { EndedActivity.all(in: events) }

    /// Whether every begun activity ended exactly once, after its begin, and the stream is valid.
    var isWellFormed: Bool { EndedActivity.areWellFormed(events) }
}
