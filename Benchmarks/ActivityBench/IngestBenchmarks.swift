import ActivityWire
import Foundation

/// Decoding another producer's stream beside the same events in our encoder's canonical form:
/// what `activity-bench --ingest FILE` prints for Benchmarks/ingest.sh. The ratio of the two is
/// what the general decoder costs over the fast path, on the same events.
enum IngestBenchmarks {
    struct Result: Codable {
        var lines: Int
        var events: Int
        /// Best of the runs, events per second: the file as written, decoded.
        var decodeAsWritten: Double
        /// The same events re-encoded by ``ActivityEventEncoder``, decoded.
        var decodeCanonical: Double
        /// As written, decoded and folded into the store.
        var foldAsWritten: Double
        var foldCanonical: Double
    }

    static func measure(path: String, runs: Int) throws -> Result {
        guard let data = FileManager.default.contents(atPath: path) else { throw BenchError("cannot read \(path)") }
        let asWritten = [UInt8](data)
        let canonical = try canonicalForm(of: asWritten)
        let settings = BenchSettings(runs: runs, scale: 1)
        let events = try StoreBenchmarks.foldOnce(asWritten)
        return Result(
            lines: asWritten.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }, events: events,
            decodeAsWritten: try WireBenchmarks.decode(asWritten, settings: settings).max() ?? 0,
            decodeCanonical: try WireBenchmarks.decode(canonical, settings: settings).max() ?? 0,
            foldAsWritten: try StoreBenchmarks.fold(asWritten, settings: settings).max() ?? 0,
            foldCanonical: try StoreBenchmarks.fold(canonical, settings: settings).max() ?? 0)
    }

    /// Decodes `stream` once; returns the events. (What `activity-bench --decode-once` runs.)
    @inline(never)
    static func decodeOnce(_ stream: [UInt8]) throws -> Int {
        var reader = EventStreamReader(source: BytesSource(stream))
        var events = 0
        try reader.forEach { item in
            if case .event = item.inPlace { events += 1 }
        }
        return events
    }

    /// Every event of `stream`, re-encoded in canonical form; lines that are not events are dropped.
    static func canonicalForm(of stream: [UInt8]) throws -> [UInt8] {
        let encoder = ActivityEventEncoder()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(stream.count)
        var reader = EventStreamReader(source: BytesSource(stream))
        try reader.forEach { item in
            if let event = item.decoded.event { encoder.encode(event, into: &bytes) }
        }
        return bytes
    }
}
