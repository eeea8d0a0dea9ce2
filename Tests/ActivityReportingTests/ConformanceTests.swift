import ActivityWire
import Foundation
import TestSupport
import Testing

@testable import ActivityReporting

/// The same scripted scenario through this SDK and through the C library
/// (`Tests/Conformance/scenario-c/main.c`): after normalizing ids, times and the coalescing that
/// timing decides, the two streams are equal.
@Suite("Conformance with the C library")
struct ConformanceTests {
    /// The Swift side of the scenario; keep it step for step equal to main.c.
    static func swiftScenario(path: String) throws {
        let sink = try JSONLinesSink(.file(path: path))
        ActivitySystem.$taskReporter.withValue(Reporter(sink: sink, parent: nil)) {
            let flush = { ActivitySystem.flushAll() }
            let build = Activity.begin("Build", total: 3, unit: "targets", parent: nil)
            let compile = Activity.begin("Compile", total: 10, parent: build)
            compile.advance(by: 4)
            flush()
            compile.update(message: "compiling main.c")
            flush()
            compile.advance(by: 6)
            flush()
            compile.log("unused variable", level: .warning)
            compile.end()
            build.advance()
            flush()

            let link = Activity.begin("Link", parent: build)
            link.update(completed: 2, total: 5)
            flush()
            link.end(.failure, error: "undefined symbol: main")

            Activity.begin("Test", parent: build).end(.cancelled)
            Activity.begin("Docs", parent: build).end(.skipped, message: "no doc tool")
            ActivitySystem.log("top-level note — ✔ 日本語")
            build.update(completed: 3, total: 4)
            build.end(message: "done")

            let upload = Activity.begin("Upload", total: 1_000_000, unit: "bytes", parent: nil)
            upload.advance(by: 500_000)
            flush()
            upload.advance(by: 500_000)
            upload.removeTotal()
            upload.end()
        }
        sink.close(timeout: 5)
    }

    static let cProgram = CommandRunner.binFolder.appendingPathComponent("activity-conformance-c")

    static func cScenario(path: String) async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["ACTIVITY_SINK"] = "file:\(path)"
        environment["ACTIVITY_PARENT"] = nil
        #expect(try await runProcess(cProgram, environment: environment).status == 0)
    }

    @Test("The SDK and the C library write the same stream for the same scenario")
    func sameStream() async throws {
        try await withTemporaryFolder { folder in
            let swiftPath = folder.appendingPathComponent("swift.jsonl").path
            let cPath = folder.appendingPathComponent("c.jsonl").path
            try Self.swiftScenario(path: swiftPath)
            try await Self.cScenario(path: cPath)
            let swiftBytes = readBytes(URL(fileURLWithPath: swiftPath))
            let cBytes = readBytes(URL(fileURLWithPath: cPath))
            #expect(problems(inLines: swiftBytes) == [])
            #expect(problems(inLines: cBytes) == [])
            let swift = Self.normalized(decodeEvents(swiftBytes))
            let c = Self.normalized(decodeEvents(cBytes))
            #expect(swift.count == 16)
            #expect(swift == c)
            if swift != c {
                let encoder = ActivityEventEncoder()
                let show = { (events: [ActivityEvent]) in
                    events.map { String(decoding: encoder.encode($0), as: UTF8.self) }.joined()
                }
                Issue.record("Swift:\n\(show(swift))\nC:\n\(show(c))")
            }
        }
    }

    @Test("A child process using the C library nests its activities under ours through childEnvironment")
    func cChild() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("events.jsonl").path
            let sink = try JSONLinesSink(.file(path: path))
            let parentID = try await ActivitySystem.$taskReporter.withValue(Reporter(sink: sink, parent: nil)) {
                try await withActivity("Running the C tool") { activity -> ActivityID in
                    let result = try await runProcess(Self.cProgram, environment: activity.childEnvironment)
                    #expect(result.status == 0)
                    return activity.id
                }
            }
            sink.close(timeout: 5)
            let bytes = readBytes(URL(fileURLWithPath: path))
            #expect(problems(inLines: bytes) == [])
            let begins = decodeEvents(bytes).compactMap(\.begin)
            #expect(begins.count == 7)
            #expect(
                begins.filter { $0.title == "Build" || $0.title == "Upload" }.map(\.parent) == [parentID, parentID])
        }
    }

    /// Replaces ids by their order of appearance, drops times, merges adjacent progress lines of
    /// one activity, and folds the numbers of a progress line just before an end into that end:
    /// what a consumer sees, independent of when a background flusher happened to run.
    static func normalized(_ events: [ActivityEvent]) -> [ActivityEvent] {
        var names: [ActivityID: ActivityID] = [:]
        func rename(_ id: ActivityID) -> ActivityID {
            if let name = names[id] { return name }
            let name = ActivityID("a\(names.count + 1)")!
            names[id] = name
            return name
        }
        struct Numbers {
            var completed: Double
            var total: Double?
            var everDeterminate: Bool
        }
        var numbers: [ActivityID: Numbers] = [:]
        var result: [ActivityEvent] = []
        for event in events {
            switch event {
            case .begin(var begin):
                begin.timestamp = nil
                begin.id = rename(begin.id)
                begin.parent = begin.parent.map(rename)
                numbers[begin.id] = Numbers(
                    completed: begin.completed, total: begin.total, everDeterminate: begin.total != nil)
                result.append(.begin(begin))
            case .progress(var progress):
                progress.timestamp = nil
                progress.id = rename(progress.id)
                if let completed = progress.completed { numbers[progress.id]?.completed = completed }
                if let total = progress.total {
                    numbers[progress.id]?.total = total.value
                    if total.value != nil { numbers[progress.id]?.everDeterminate = true }
                }
                if case .progress(var last)? = result.last, last.id == progress.id {
                    last.completed = progress.completed ?? last.completed
                    last.total = progress.total ?? last.total
                    last.message = progress.message ?? last.message
                    last.title = progress.title ?? last.title
                    result[result.count - 1] = .progress(last)
                } else {
                    result.append(.progress(progress))
                }
            case .log(var log):
                log.timestamp = nil
                log.id = log.id.map(rename)
                result.append(.log(log))
            case .end(var end):
                end.timestamp = nil
                end.id = rename(end.id)
                var state = numbers[end.id] ?? Numbers(completed: 0, everDeterminate: false)
                if let completed = end.completed { state.completed = completed }
                if let total = end.total { state.total = total.value }
                if case .progress(var last)? = result.last, last.id == end.id {
                    last.completed = nil
                    last.total = nil
                    result.removeLast()
                    if last.message != nil || last.title != nil { result.append(.progress(last)) }
                }
                end.completed = state.completed
                end.total = state.total.map { .value($0) } ?? (state.everDeterminate ? .indeterminate : nil)
                result.append(.end(end))
            }
        }
        return result
    }
}
