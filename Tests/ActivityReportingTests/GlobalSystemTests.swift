import ActivityWire
import Foundation
import InMemoryActivity
import TestSupport
import Testing

@testable import ActivityReporting

/// The only suite that touches the process-wide bootstrap. Every other test binds a reporter to
/// its own task.
@Suite("ActivitySystem, process-wide", .serialized)
struct GlobalSystemTests {
    /// Runs `script` with `/bin/sh` inside an activity of a reporter bootstrapped to a file, and
    /// checks that the activity the script begins nests under ours.
    private func expectScriptNests(
        _ script: String, titled title: String
    ) async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("events.jsonl").path
            ActivitySystem.bootstrapInternal(Environment.reporter(from: ["ACTIVITY_SINK": "file:\(path)"]))
            defer { ActivitySystem.bootstrapInternal(nil) }
            #expect(ActivitySystem.isEnabled)
            let parentID = try await withActivity("Running a script") { activity -> ActivityID in
                let variables = ActivitySystem.environment(for: activity)
                #expect(variables == ["ACTIVITY_SINK": "file:\(path)", "ACTIVITY_PARENT": activity.id.rawValue])
                let result = try await runProcess(
                    URL(fileURLWithPath: "/bin/sh"), ["-c", script], environment: activity.childEnvironment)
                #expect(result.status == 0)
                return activity.id
            }
            // The sink's queue only: `ActivitySystem.flush` would also send the pending progress
            // of the activities of tests running beside this one.
            ActivitySystem.reporter.sink.flush(timeout: 5)
            let bytes = readBytes(URL(fileURLWithPath: path))
            #expect(problems(inLines: bytes) == [])
            let begins = decodeEvents(bytes).compactMap(\.begin)
            #expect(begins.map(\.title) == ["Running a script", title])
            #expect(begins.last?.parent == parentID)
        }
    }

    @Test("A child process given childEnvironment nests its activities under ours")
    func childProcess() async throws {
        let script = #"""
            out="${ACTIVITY_SINK#file:}"
            printf '{"v":1,"type":"begin","id":"sh.%s","parent":"%s","title":"child"}\n' $$ "$ACTIVITY_PARENT" >> "$out"
            printf '{"v":1,"type":"end","id":"sh.%s","status":"success"}\n' $$ >> "$out"
            """#
        try await expectScriptNests(script, titled: "child")
    }

    @Test("bootstrap installs an in-process sink once; a second bootstrap is ignored")
    func bootstrapOnce() async throws {
        let first = InMemoryActivitySink()
        let second = InMemoryActivitySink()
        ActivitySystem.bootstrapInternal(nil)
        defer { ActivitySystem.bootstrapInternal(nil) }
        ActivitySystem.bootstrap(first, parent: nil)
        ActivitySystem.bootstrap(second, parent: nil)
        withActivity("Once") { activity in
            activity.advance()
            #expect(ActivitySystem.environment(for: activity) == ["ACTIVITY_PARENT": activity.id.rawValue])
        }
        #expect(first.begins.map(\.title) == ["Once"])
        #expect(first.ends.first?.completed == 1)
        #expect(second.events.isEmpty)
    }

    @Test("Cancel by id reaches an activity of the global reporter")
    func cancelGlobal() async throws {
        let sink = InMemoryActivitySink()
        ActivitySystem.bootstrapInternal(Reporter(sink: sink, parent: nil))
        defer { ActivitySystem.bootstrapInternal(nil) }
        let work = Task {
            try await withActivity("Uploading", cancellable: true) { _ in try await Task.sleep(for: .seconds(600)) }
        }
        await Poll.until(timeout: 900) { !sink.begins.isEmpty }  // the task may wait long for a thread
        let id = try #require(sink.begins.first?.id)
        #expect(ActivitySystem.cancel(id))
        await #expect(throws: CancellationError.self) { try await work.value }
        #expect(sink.ends.first?.status == .cancelled)
    }

    @Test("With ACTIVITY_SINK unset nothing is written, and children are told so")
    func disabledByDefault() {
        ActivitySystem.bootstrapInternal(Environment.reporter(from: [:]))
        defer { ActivitySystem.bootstrapInternal(nil) }
        #expect(!ActivitySystem.isEnabled)
        withActivity("Silent") { activity in
            #expect(ActivitySystem.environment(for: activity)["ACTIVITY_SINK"] == "none")
            let child = ActivitySystem.childEnvironment(for: activity, base: ["PATH": "/bin", "ACTIVITY_SINK": "fd:9"])
            #expect(child == ["PATH": "/bin", "ACTIVITY_SINK": "none", "ACTIVITY_PARENT": activity.id.rawValue])
        }
    }
}

@Suite("The environment")
struct EnvironmentTests {
    @Test("ACTIVITY_SINK and ACTIVITY_PARENT choose the reporter; bad settings turn reporting off")
    func parsing() throws {
        #expect(!Environment.reporter(from: [:]).isEnabled)
        #expect(!Environment.reporter(from: ["ACTIVITY_SINK": ""]).isEnabled)
        #expect(!Environment.reporter(from: ["ACTIVITY_SINK": "none"]).isEnabled)
        #expect(!Environment.reporter(from: ["ACTIVITY_SINK": "carrier-pigeon"]).isEnabled)
        #expect(!Environment.reporter(from: ["ACTIVITY_SINK": "unix:/nonexistent/socket"]).isEnabled)
        let stderr = Environment.reporter(from: ["ACTIVITY_SINK": "stderr", "ACTIVITY_PARENT": "abc.1"])
        #expect(stderr.isEnabled)
        #expect(stderr.parent == ActivityID("abc.1"))
        #expect(stderr.childDestination == .standardError)
        #expect(Environment.reporter(from: ["ACTIVITY_SINK": "stderr", "ACTIVITY_PARENT": "bad id!"]).parent == nil)
    }
}
