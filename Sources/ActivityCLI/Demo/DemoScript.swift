import ActivityWire

/// The workload `activity demo` shows: about ten seconds of a parallel build, as a fixed timeline
/// of events, the same on every run (so it can be tested), with the irregular pace of real work.
enum DemoScript {
    struct Entry: Sendable {
        /// Seconds from the start.
        var time: Double
        var event: ActivityEvent
    }

    /// The whole timeline, in time order.
    static func timeline() -> [Entry] {
        var script = Builder()
        let build = script.begin("Build swift-activity", at: 0, total: nil, cancellable: true)
        script.log("Planning 7 steps on 2 cores", at: 0.05)

        let resolve = script.begin("Resolve packages", at: 0.1, parent: build)
        for (index, name) in ["swift-collections 1.1.4", "swift-system 1.4.0", "swift-argument-parser 1.5.0"]
            .enumerated()
        {
            script.progress(resolve, at: 0.2 + Double(index) * 0.35, message: name)
        }
        script.end(resolve, at: 1.3)

        let toolchain = script.begin("Download toolchain", at: 0.6, parent: build, total: 48_234_496, unit: "bytes")
        script.advance(
            toolchain, from: 0.6, to: 6.2, total: 48_234_496, seed: 7, message: "swift-6.3.1-ubuntu24.04.tar.gz")
        script.end(toolchain, at: 6.2)

        let assets = script.begin("Download assets", at: 0.9, parent: build, total: 12_582_912, unit: "bytes")
        script.advance(assets, from: 0.9, to: 4.1, total: 12_582_912, seed: 3, stopAt: 0.41, message: "assets.tar.zst")
        script.log("assets.tar.zst: connection reset by peer", at: 4.1, id: assets, level: .error)
        script.end(assets, at: 4.1, status: .failure, error: "connection reset by peer")

        let compile = script.begin("Compile", at: 1.4, parent: build, total: 24, unit: "files")
        let modules: [(String, Double, Double, [String])] = [
            (
                "ActivityWire", 1.4, 4.4,
                [
                    "ActivityEvent", "ActivityID", "JSONScanner", "FieldReader", "JSONWriter",
                    "LineReader", "EventStreamReader", "StreamValidator",
                ]
            ),
            (
                "ActivityRendering", 2.0, 7.2,
                [
                    "ActivityStore", "RateEstimator", "TextSanitizer", "DisplayWidth",
                    "Formatting", "TerminalRenderer", "LogFileRenderer", "JSONLinesRenderer", "PluginRenderer",
                    "RenderSession",
                ]
            ),
            ("ActivityCLI", 4.5, 8.5, ["ArgumentParser", "Render", "Run", "SocketServer", "Spawn", "main"]),
        ]
        var compiled: [(time: Double, count: Int)] = []
        for (module, start, end, files) in modules {
            let id = script.begin(module, at: start, parent: compile, total: Double(files.count), unit: "files")
            let step = (end - start) / Double(files.count)
            for (index, file) in files.enumerated() {
                let time = start + Double(index) * step + step * 0.1
                script.progress(id, at: time, completed: Double(index), message: "\(file).swift")
                compiled.append((start + Double(index + 1) * step, 1))
            }
            if module == "ActivityWire" {
                script.log("FieldReader.swift:88: 'end' is never mutated", at: 3.3, id: id, level: .warning)
            }
            script.end(id, at: end, completed: Double(files.count))
        }
        var done = 0
        for (time, count) in compiled.sorted(by: { $0.time < $1.time }) {
            done += count
            script.progress(compile, at: time - 0.001, completed: Double(done))
        }
        script.end(compile, at: 8.6)

        let docs = script.begin("Generate documentation", at: 2.5, parent: build, total: 40, unit: "pages")
        script.advance(docs, from: 2.5, to: 6.8, total: 40, seed: 5, stopAt: 0.43, whole: true)
        script.log("Documentation is not needed for a debug build", at: 6.8, id: docs)
        script.end(docs, at: 6.8, status: .cancelled, message: "not needed for a debug build")

        let link = script.begin("Link activity", at: 8.6, parent: build)
        script.progress(link, at: 8.9, message: "ld.lld -o .build/debug/activity")
        script.end(link, at: 9.2)

        let tests = script.begin("Run tests", at: 9.2, parent: build, total: 132, unit: "tests")
        script.advance(tests, from: 9.2, to: 9.9, total: 132, seed: 11, whole: true)
        script.end(tests, at: 9.9, message: "132 passed")

        script.log("Build finished with 1 failed step", at: 9.95, level: .warning)
        script.end(build, at: 10, status: .failure, error: "Download assets failed")
        return script.entries.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
    }

    /// Collects the events of the script.
    private struct Builder {
        var entries: [Entry] = []
        private var counter = 0

        mutating func begin(
            _ title: String, at time: Double, parent: ActivityID? = nil, total: Double? = nil, unit: String? = nil,
            cancellable: Bool = false
        ) -> ActivityID {
            counter += 1
            let id = ActivityID(unchecked: "demo.\(counter)")
            add(
                time,
                .begin(.init(id: id, title: title, parent: parent, total: total, unit: unit, cancellable: cancellable)))
            return id
        }

        mutating func progress(_ id: ActivityID, at time: Double, completed: Double? = nil, message: String? = nil) {
            add(time, .progress(.init(id: id, completed: completed, message: message)))
        }

        /// Progress ten times a second at an uneven pace, up to `stopAt` of the total.
        mutating func advance(
            _ id: ActivityID, from start: Double, to end: Double, total: Double, seed: UInt64, stopAt: Double = 1,
            whole: Bool = false, message: String? = nil
        ) {
            var random = seed
            var weights: [Double] = []
            let steps = max(1, Int(saturating: (end - start) * 10, rounding: .toNearestOrAwayFromZero))
            for _ in 0..<steps {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                weights.append(0.4 + Double(random >> 40) / Double(1 << 24))
            }
            let sum = weights.reduce(0, +)
            var completed = 0.0
            for (index, weight) in weights.enumerated() {
                completed += weight / sum * total * stopAt
                let value = whole ? completed.rounded(.down) : completed.rounded()
                progress(
                    id, at: start + Double(index + 1) * 0.1 - 0.05, completed: value,
                    message: index == 0 ? message : nil)
            }
        }

        mutating func log(_ message: String, at time: Double, id: ActivityID? = nil, level: ActivityEvent.Level = .info)
        {
            add(time, .log(.init(message: message, id: id, level: level)))
        }

        mutating func end(
            _ id: ActivityID, at time: Double, status: ActivityEvent.Status = .success, message: String? = nil,
            error: String? = nil, completed: Double? = nil
        ) {
            add(time, .end(.init(id: id, status: status, message: message, error: error, completed: completed)))
        }

        private mutating func add(_ time: Double, _ event: ActivityEvent) {
            entries.append(Entry(time: time, event: event))
        }
    }
}
