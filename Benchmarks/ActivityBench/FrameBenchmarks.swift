import ActivityRendering
import ActivityWire

/// The time to build and write one TTY frame of the live region, into a memory buffer.
enum FrameBenchmarks {
    static func figures(settings: BenchSettings) throws -> [Figure] {
        [
            try frame(activities: 1, target: 2, settings: settings),
            try frame(activities: 100, target: 40, settings: settings),
            try frame(activities: 1000, target: nil, settings: settings),
        ]
    }

    private static func frame(activities: Int, target: Double?, settings: BenchSettings) throws -> Figure {
        let output = BufferOutput()
        let renderer = TerminalRenderer(
            output: output,
            configuration: .init(
                mode: .tty, style: TerminalStyle(unicode: true, color: true),
                size: TerminalSize(columns: 120, rows: 50),
                displayIsTerminal: true, startTime: 0))
        var store = ActivityStore()
        for index in 0..<activities {
            let id = ActivityID("a.\(index)")!
            let parent = index == 0 ? nil : ActivityID("a.\(index < 10 ? 0 : index / 10)")
            let begin = ActivityEvent.begin(
                .init(
                    id: id, title: "Compiling module \(index)", parent: parent, total: 1000,
                    unit: index % 3 == 0 ? "bytes" : "files", message: "file-\(index).swift", timestamp: 0))
            for update in store.updates(applying: begin) { renderer.render(update, in: store) }
        }
        let iterations = settings.iterations(activities >= 1000 ? 2_000 : activities >= 100 ? 20_000 : 200_000)
        var time = 1.0
        let runs = repeated(settings) {
            var elapsed: UInt64 = 0
            for step in 0..<iterations {
                // Each frame follows new progress on one activity, as a live display does.
                let id = ActivityID("a.\(step % activities)")!
                time += 0.05
                store.apply(.progress(.init(id: id, completed: Double(step % 1000), timestamp: time)), line: 0) { _ in }
                let start = nowNanoseconds()
                renderer.tick(store, now: time)
                elapsed += nowNanoseconds() - start
                if output.writes.count > 64 { output.removeAll() }
            }
            return Double(elapsed) / Double(iterations) / 1000
        }
        return Figure(
            name: "frame build: \(activities) activit\(activities == 1 ? "y" : "ies")", unit: "µs/frame", runs: runs,
            target: target, better: .lower, anchor: activities == 1 ? "indicatif one bar 1.5 µs" : nil,
            note: "120×50 terminal, live region capped at rows − 1")
    }
}
