import ActivityWire

/// Decoding and encoding throughput of the wire library alone.
enum WireBenchmarks {
    /// `count` progress lines for 100 activities, as a producer writes them.
    static func progressStream(count: Int) -> [UInt8] {
        let encoder = ActivityEventEncoder()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 80)
        let ids = (0..<100).map { ActivityID("3f9c2a71d04be815.\($0)")! }
        for id in ids {
            encoder.encode(.begin(.init(id: id, title: "Compiling module \(id)", total: 1e6)), into: &bytes)
        }
        for i in 0..<count {
            let event = ActivityEvent.progress(
                .init(id: ids[i % 100], completed: Double(i / 100), timestamp: 1_764_417_600 + Double(i) / 1000))
            encoder.encode(event, into: &bytes)
        }
        for id in ids { encoder.encode(.end(.init(id: id)), into: &bytes) }
        return bytes
    }

    /// `count` begin/end pairs, each a new activity.
    static func beginEndStream(pairs count: Int) -> [UInt8] {
        let encoder = ActivityEventEncoder()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 160)
        for i in 0..<count {
            let id = ActivityID("3f9c2a71d04be815.\(i)")!
            encoder.encode(.begin(.init(id: id, title: "Test case \(i)", timestamp: 1_764_417_600)), into: &bytes)
            encoder.encode(.end(.init(id: id, timestamp: 1_764_417_600.5)), into: &bytes)
        }
        return bytes
    }

    /// Events per second through the line reader and the decoder.
    static func decode(_ stream: [UInt8], settings: BenchSettings) throws -> [Double] {
        try repeated(settings) {
            var reader = EventStreamReader(source: BytesSource(stream))
            var events = 0
            let start = nowNanoseconds()
            try reader.forEach { item in
                if case .event = item.inPlace { events += 1 }
            }
            return Double(events) / (Double(nowNanoseconds() - start) / 1e9)
        }
    }

    static func encode(settings: BenchSettings) -> [Double] {
        let encoder = ActivityEventEncoder()
        let id = ActivityID("3f9c2a71d04be815.12")!
        let iterations = settings.iterations(2_000_000)
        return repeated(settings) {
            var buffer: [UInt8] = []
            buffer.reserveCapacity(256)
            let start = nowNanoseconds()
            for i in 0..<iterations {
                buffer.removeAll(keepingCapacity: true)
                encoder.encode(.progress(.init(id: id, completed: Double(i))), into: &buffer)
            }
            blackHole(buffer)
            return Double(iterations) / (Double(nowNanoseconds() - start) / 1e9)
        }
    }

    static func figures(settings: BenchSettings) throws -> [Figure] {
        let progress = progressStream(count: settings.iterations(1_000_000))
        let pairs = beginEndStream(pairs: settings.iterations(500_000))
        return [
            Figure(
                name: "decode: \(countText(settings.iterations(1_000_000))) progress events", unit: "events/s",
                runs: try decode(progress, settings: settings),
                target: nil, better: .higher,
                anchor: "JSONDecoder 0.28M, json-c 1.0M, simdjson 14M"),
            Figure(
                name: "decode: begin/end pairs", unit: "events/s", runs: try decode(pairs, settings: settings),
                target: nil, better: .higher, anchor: nil),
            Figure(
                name: "encode: progress event", unit: "events/s", runs: encode(settings: settings), target: nil,
                better: .higher, anchor: nil),
        ]
    }
}
