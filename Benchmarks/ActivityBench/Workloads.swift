import ActivityWire

/// The streams a consumer folds in the benchmark, as producers write them.
enum Workload: String, CaseIterable, Sendable {
    /// Progress events for 100 activities, between their begins and ends.
    case progress
    /// Begin/end pairs, each a new activity.
    case pairs
    /// A build: a root, 8 targets, files under them, 8 at a time; per file a begin, 17 progress
    /// events (every 8th with a message), a log line and an end: 10 % begin/end, 5 % logs.
    case mix

    /// The stream for about `events` events.
    func stream(events: Int) -> [UInt8] {
        switch self {
        case .progress: WireBenchmarks.progressStream(count: events)
        case .pairs: WireBenchmarks.beginEndStream(pairs: events / 2)
        case .mix: Self.mixStream(events: events)
        }
    }

    /// How the figures name the stream.
    var label: String {
        switch self {
        case .progress: "progress events"
        case .pairs: "begin/end events (pairs)"
        case .mix: "realistic mix (tree, logs, 10 % begin/end)"
        }
    }

    private static func mixStream(events: Int) -> [UInt8] {
        let encoder = ActivityEventEncoder()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events * 110)
        var time = 1_764_417_600.0
        func emit(_ event: ActivityEvent) {
            time += 0.0001
            encoder.encode(event, into: &bytes)
        }
        // Timestamps to the microsecond, as the SDKs and libactivity write them.
        var stamp: Double { (time * 1e6).rounded() / 1e6 }
        let prefix = "3f9c2a71d04be815."
        let root = ActivityID(prefix + "0")!
        emit(.begin(.init(id: root, title: "Build swift-activity", timestamp: stamp)))
        let targets = (1...8).map { ActivityID(prefix + "\($0)")! }
        for (index, target) in targets.enumerated() {
            emit(.begin(.init(id: target, title: "Compile target \(index)", parent: root, timestamp: stamp)))
        }
        var file = 100
        var written = 1 + targets.count
        while written < events {
            let group = (0..<8).map { offset in (ActivityID(prefix + "\(file + offset)")!, targets[offset]) }
            for (id, parent) in group {
                emit(
                    .begin(
                        .init(
                            id: id, title: "Compiling File\(file).swift", parent: parent, total: 17, unit: "steps",
                            timestamp: stamp)))
            }
            for step in 1...17 {
                for (id, _) in group {
                    emit(
                        .progress(
                            .init(
                                id: id, completed: Double(step), message: step % 8 == 0 ? "pass \(step / 8)" : nil,
                                timestamp: stamp)))
                }
            }
            for (id, _) in group {
                emit(.log(.init(message: "warning: unused variable 'x'", id: id, level: .warning, timestamp: stamp)))
            }
            for (id, _) in group { emit(.end(.init(id: id, timestamp: stamp))) }
            file += 8
            written += 8 * 20
        }
        for target in targets { emit(.end(.init(id: target, timestamp: stamp))) }
        emit(.end(.init(id: root, timestamp: stamp)))
        return bytes
    }
}
