import ActivityOverlay
import ActivityReporting
import ActivityWire
import Foundation
import Synchronization
import Testing

@testable import ActivityCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `--mode overlay-jsonl --control`: the requests a presenting process sends back, and what is
/// ignored.
@Suite("Cancel requests to the overlay-jsonl presenter")
struct OverlayControlTests {
    func id(_ text: String) -> ActivityID { ActivityID(text)! }

    /// What a presenter asked to cancel, call by call.
    final class Cancels: Sendable {
        let calls = Mutex<[[ActivityID]]>([])
        var all: [[ActivityID]] { calls.withLock { $0 } }
    }

    /// A presenter writing to /dev/null that records what it asks to cancel.
    func presenter(_ cancels: Cancels) throws -> (OverlayJSONLinesPresenter, Int32) {
        let sink = open("/dev/null", O_WRONLY | O_CLOEXEC)
        try #require(sink >= 0)
        var configuration = OverlayConfiguration()
        configuration.graceMilliseconds = 0
        let presenter = OverlayJSONLinesPresenter(
            outputFD: sink, configuration: configuration, onCancel: { ids in cancels.calls.withLock { $0.append(ids) } }
        )
        return (presenter, sink)
    }

    @Test("requests decode: the Cancel control without id, one activity with it")
    func decoding() throws {
        #expect(try ControlMessage.decodeRequest(Array(#"{"v":1,"type":"cancel"}"#.utf8)).get() == nil)
        #expect(
            try ControlMessage.decodeRequest(Array(#"{"v":1,"type":"cancel","id":"a.1"}"#.utf8)).get() == id("a.1"))
        let problems: [(String, String)] = [
            ("cancel", "not a JSON object"),
            (#"{"v":1,"type":"cancel""#, "not a JSON object"),
            (#"{"type":"cancel"}"#, #""v" must be 1"#),
            (#"{"v":2,"type":"cancel"}"#, #""v" must be 1"#),
            (#"{"v":1}"#, #"no "type""#),
            (#"{"v":1,"type":"pause"}"#, #"unknown type "pause", only "cancel""#),
            (#"{"v":1,"type":"cancel","id":""}"#, #""id" is not an activity id"#),
            (#"{"v":1,"type":"cancel","id":7}"#, #""id" is not an activity id"#),
            (#"{"v":1,"v":1,"type":"cancel"}"#, #"duplicate key "v""#),
        ]
        for (line, message) in problems {
            #expect(
                ControlMessage.decodeRequest(Array(line.utf8)) == .failure(ControlLineProblem(message: message)),
                "\(line)")
        }
        #expect(ControlMessage.decodeRequest([0xFF]) == .failure(ControlLineProblem(message: "not UTF-8")))
        // Producers still take only a cancel that names an activity.
        #expect(ControlMessage(decoding: Array(#"{"v":1,"type":"cancel"}"#.utf8)) == nil)
    }

    @Test("the Cancel control cancels what is shown and cancellable, once however often it is tapped")
    func cancelControl() throws {
        let cancels = Cancels()
        let (presenter, sink) = try presenter(cancels)
        defer { close(sink) }
        presenter.handle(.begin(.init(id: id("plain"), title: "Plain")))
        presenter.handle(.begin(.init(id: id("work"), title: "Work", cancellable: true)))
        presenter.handle(.progress(.init(id: id("work"), completed: 1)))  // past the grace: shown
        for _ in 0..<3 { presenter.handleControl(line: 1, .success(nil)) }
        presenter.handleControl(line: 4, .success(id("work")))  // already asked for by the tap
        presenter.finish()
        #expect(cancels.all == [[id("work")]])
        #expect(presenter.controlCounts.ignoredCancels == 1)
    }

    @Test("ignored by id: unknown, not cancellable, ended, asked before, after the end; bad lines counted")
    func ignoreRules() throws {
        let cancels = Cancels()
        let (presenter, sink) = try presenter(cancels)
        defer { close(sink) }
        presenter.handle(.begin(.init(id: id("plain"), title: "Plain")))
        presenter.handle(.begin(.init(id: id("done"), title: "Done", cancellable: true)))
        presenter.handle(.end(.init(id: id("done"))))
        presenter.handle(.begin(.init(id: id("top"), title: "Top")))
        presenter.handle(.begin(.init(id: id("nested"), title: "Nested", parent: id("top"), cancellable: true)))
        for name in ["unknown", "plain", "done", "nested", "nested"] {
            presenter.handleControl(line: 1, .success(id(name)))
        }
        presenter.handleControl(line: 7, .failure(ControlLineProblem(message: "not a JSON object")))
        presenter.finish()
        presenter.handleControl(line: 8, .success(nil))  // after the end: nothing
        // A nested cancellable activity may be named; it is asked for once.
        #expect(cancels.all == [[id("nested")]])
        #expect(presenter.controlCounts.ignoredCancels == 4)
        #expect(presenter.controlCounts.badLines == 1)
    }

    @Test("the channel: line numbers, problems named, end of file ends it, the given pipe's flags kept")
    func channel() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let given = fcntl(ends[0], F_DUPFD, 10)
        close(ends[0])
        let pipeName = try #require(Self.target(of: given))
        #expect(Self.descriptors(to: pipeName) == 2)  // given, and the write end
        let channel = try ControlChannel(.fileDescriptor(given))
        // Our own description instead of the given one, which is closed: a command under `run`
        // does not inherit it.
        #expect(Self.descriptors(to: pipeName) == 2)
        let lines = Mutex<[(Int, Result<ActivityID?, ControlLineProblem>)]>([])
        let done = DispatchSemaphore(value: 0)
        channel.start { number, request in
            lines.withLock { $0.append((number, request)) }
            if number == 5 { done.signal() }
        }
        let text =
            "{\"v\":1,\"type\":\"cancel\"}\n\nnot json\n" + String(repeating: "x", count: 5000) + "\n"
            + "{\"v\":1,\"type\":\"cancel\",\"id\":\"b\"}"
        _ = text.utf8CString.withUnsafeBufferPointer { write(ends[1], $0.baseAddress, $0.count - 1) }
        #expect(fcntl(ends[1], F_GETFL) & O_NONBLOCK == 0)  // the presenter's end stays blocking
        close(ends[1])  // end of file: the last line, without its newline, still counts
        #expect(done.wait(timeout: .now() + 30) == .success)
        channel.stop()
        let seen = lines.withLock { $0 }
        #expect(seen.map(\.0) == [1, 3, 4, 5])
        #expect(try seen[0].1.get() == nil)
        #expect(seen[1].1 == .failure(ControlLineProblem(message: "not a JSON object")))
        #expect(seen[2].1 == .failure(ControlLineProblem(message: "longer than 4096 bytes")))
        #expect(try seen[3].1.get() == id("b"))
    }

    /// What `/proc/self/fd/N` links to (`pipe:[1234]`).
    static func target(of fd: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
    }

    /// How many of this process's descriptors link to `name`.
    static func descriptors(to name: String) -> Int {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return all.compactMap { Int32($0) }.filter { target(of: $0) == name }.count
    }

    @Test("--control: only with overlay-jsonl, only fd:N (3 and above) or unix:PATH")
    func option() throws {
        let parser = RenderCommand.parser
        func options(_ arguments: [String]) throws -> DisplayOptions {
            try DisplayOptions(try parser.parse(arguments), parser: parser)
        }
        #expect(try options(["--mode", "overlay-jsonl", "--control", "fd:3"]).control == .fileDescriptor(3))
        #expect(
            try options(["--mode", "overlay-jsonl", "--control", "unix:/tmp/s"]).control == .unixSocket(path: "/tmp/s"))
        for bad in [
            ["--control", "fd:3"], ["--mode", "overlay", "--control", "fd:3"],
            ["--mode", "overlay-jsonl", "--control", "fd:0"], ["--mode", "overlay-jsonl", "--control", "fd:2"],
            ["--mode", "overlay-jsonl", "--control", "file:/tmp/x"], ["--mode", "overlay-jsonl", "--control", "3"],
        ] {
            #expect(throws: CommandLineError.self, "\(bad)") { try options(bad) }
        }
    }

    @Test("a descriptor that is not a pipe or a socket is refused before anything runs")
    func notAChannel() throws {
        let file = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(file) }
        #expect(throws: ControlChannel.Failure.self) { try ControlChannel(.fileDescriptor(file)) }
        #expect(fcntl(file, F_GETFD) != -1)  // refused: left open, as it was
    }
}
