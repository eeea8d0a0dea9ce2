import Foundation
import TestSupport
import Testing

/// `activity run --mode overlay-jsonl --control fd:N`: a presenting process (a Python script, as an
/// app would be) reads the overlay states and, once Cancel is offered, writes a cancel request on
/// its pipe. The request reaches the producer under `activity run`, which ends its activity
/// cancelled and goes on; the command exits 0.
@Suite("Cancel travels back from an overlay-jsonl presenter to the producer", .serialized)
struct OverlayJSONLCancelTests {
    static let python = LibactivityBuild.executable("python3")
    static let presenter = LibactivityBuild.packageRoot.appending(
        path: "Tests/ActivityEndToEndTests/Scripts/overlay_presenter.py")

    func present(_ request: String, command: [String], prefix: URL) throws -> LibactivityBuild.Outcome {
        let python = try #require(Self.python)
        let activity = CommandRunner.activity
        let path = CommandRunner.path
        return try LibactivityBuild.run(
            python, [Self.presenter.path, activity, request, "--"] + command,
            environment: [
                "PATH": path, "LANG": "C.UTF-8",
                "ACTIVITY_LIBRARY": prefix.appending(path: "lib/libactivity.so.0").path,
            ])
    }

    @Test(
        "the presenter's Cancel control ends the shown cancellable activity cancelled; the command exits 0",
        .enabled(if: python != nil, "python3 is not installed"),
        arguments: [CancelEndToEndTests.Producer.swift, .c])
    func cancelControl(_ producer: CancelEndToEndTests.Producer) async throws {
        let prefix = try await LibactivityBuild.installedPrefix()
        let folder = try TemporaryFolder()
        let command = try CancelEndToEndTests().command(producer, in: folder, prefix: prefix)
        let outcome = try present(
            #"{"v":1,"type":"cancel"}"#, command: command.split(separator: " ").map(String.init), prefix: prefix)
        #expect(outcome.output.hasPrefix("status 0\n"), "\(outcome.combined)")
        #expect(outcome.output.contains("stopped: cancelled"), "\(outcome.combined)")
    }

    @Test(
        "a request naming the activity reaches a shell script (--cancel-signal), once",
        .enabled(if: python != nil, "python3 is not installed"))
    func cancelByID() async throws {
        let prefix = try await LibactivityBuild.installedPrefix()
        let script = """
            n=0
            trap 'n=$((n + 1))' USR1
            id=$(activity emit begin "Waiting for Cancel" --cancel-signal USR1)
            echo "id: $id" >&2
            i=0
            while [ $i -lt 300 ] && [ $n = 0 ]; do sleep 0.1; i=$((i + 1)); done
            sleep 0.5  # a second signal, if one came, would be counted meanwhile
            activity emit end "$id" --status cancelled
            echo "stopped: cancelled after $n signal(s)"
            """
        let outcome = try present(
            #"{"v":1,"type":"cancel","id":"{id}"}"#, command: ["sh", "-c", script], prefix: prefix)
        #expect(outcome.output.hasPrefix("status 0\n"), "\(outcome.combined)")
        #expect(outcome.output.contains("stopped: cancelled after 1 signal(s)"), "\(outcome.combined)")
    }
}
