import ActivityRendering
import ActivityWire

#if canImport(Glibc)
    import Glibc
#endif

/// What a consumer does with every line: decode it and fold it into the store.
enum StoreBenchmarks {
    /// Events per second through the line reader, the decoder and the store, as a consumer
    /// folds a stream: each line decoded in place, its id looked up from the line's bytes.
    static func fold(_ stream: [UInt8], settings: BenchSettings) throws -> [Double] {
        try repeated(settings) {
            let start = nowNanoseconds()
            let events = try foldOnce(stream)
            return Double(events) / (Double(nowNanoseconds() - start) / 1e9)
        }
    }

    /// Folds `stream` once; returns the events applied. (What `activity-bench --profile` runs.)
    @inline(never)
    static func foldOnce(_ stream: [UInt8]) throws -> Int {
        var store = ActivityStore()
        return try fold(BytesSource(stream, chunkSize: LineReader<BytesSource>.blockBytes), into: &store)
    }

    /// Folds every event `source` gives into `store`, then ends what is open; returns the events.
    static func fold<Source: ByteSource>(_ source: Source, into store: inout ActivityStore) throws -> Int {
        var reader = EventStreamReader(source: source)
        var events = 0
        try reader.forEach { item in
            guard case .event(let event) = item.inPlace else { return }
            events += 1
            store.apply(event, line: item.line) { _ in }
        }
        store.finish(at: 0) { _ in }
        return events
    }

    static func foldFigures(settings: BenchSettings) throws -> [Figure] {
        let events = settings.iterations(1_000_000)
        var figures: [Figure] = []
        for workload in Workload.allCases {
            let stream = workload.stream(events: events)
            let runs = try fold(stream, settings: settings)
            let target: Double? =
                switch workload {
                case .progress: 5_000_000
                case .mix: 3_000_000
                case .pairs: nil
                }
            figures.append(
                Figure(
                    name: "decode + fold: \(countText(events)) \(workload.label)", unit: "events/s", runs: runs,
                    target: target, better: .higher,
                    anchor: workload == .progress ? "JSONDecoder alone 0.28M, json-c alone 1.0M" : nil))
            figures.append(
                Figure(
                    name: "decode + fold: \(workload.label), per event", unit: "ns/event", runs: runs.map { 1e9 / $0 },
                    target: target.map { 1e9 / $0 }, better: .lower, anchor: nil))
        }
        return figures
    }

    /// Peak resident memory while 10 M events over 1 M activities stream through decode and fold:
    /// each activity begins, makes 8 progress steps and ends, 100 of them open at a time. The
    /// stream is generated as it is read, so only the store's memory grows with it.
    static func peakMemory(settings: BenchSettings) throws -> [Figure] {
        let activities = settings.iterations(1_000_000)
        var store = ActivityStore()
        let events = try fold(SyntheticStream(activities: activities), into: &store)
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let megabytes = Double(usage.ru_maxrss) / 1024  // ru_maxrss is in KiB on Linux
        return [
            Figure(
                name: "peak RSS: \(countText(events)) events over \(countText(activities)) activities",
                unit: "MB", runs: [megabytes], target: 64, better: .lower, anchor: nil,
                note: "whole benchmark process, decode and fold")
        ]
    }
}

/// A stream of `activities` activities, each `begin`, 8 `progress`, `end`, generated on demand,
/// interleaved 100 at a time.
struct SyntheticStream: ByteSource {
    private let activities: Int
    private var next = 0  // index of the next line to generate
    private var pending: [UInt8] = []
    private var offset = 0
    private let encoder = ActivityEventEncoder()

    init(activities: Int) {
        self.activities = activities
    }

    /// Lines per activity, and how many activities run side by side.
    private static let steps = 10
    private static let width = 100

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while pending.count - offset < buffer.count, next < activities * Self.steps {
            if offset > 0 {
                pending.removeFirst(offset)
                offset = 0
            }
            // Lines go round-robin over a group of `width` activities: all begins, then each step.
            let group = next / (Self.width * Self.steps)
            let inGroup = next % (Self.width * Self.steps)
            let step = inGroup / Self.width
            let index = group * Self.width + inGroup % Self.width
            next += 1
            guard index < activities else { continue }
            let id = ActivityID("3f9c2a71d04be815.\(index)")!
            let time = 1_764_417_600 + Double(next) / 1e5
            let event: ActivityEvent =
                switch step {
                case 0: .begin(.init(id: id, title: "Item \(index)", total: 8, timestamp: time))
                case Self.steps - 1: .end(.init(id: id, timestamp: time))
                default: .progress(.init(id: id, completed: Double(step), timestamp: time))
                }
            encoder.encode(event, into: &pending)
        }
        let count = min(buffer.count, pending.count - offset)
        pending.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
