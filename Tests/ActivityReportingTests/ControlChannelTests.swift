import ActivityWire
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ActivityReporting

@Suite("The control direction: a consumer's cancel reaches the producer")
struct ControlChannelTests {
    @Test("Control lines: the cancel line, and everything that is not one")
    func controlLines() throws {
        let id = try #require(ActivityID("3f9c.12"))
        let line = ControlMessage.cancel(id).encoded()
        #expect(String(decoding: line, as: UTF8.self) == "{\"v\":1,\"type\":\"cancel\",\"id\":\"3f9c.12\"}\n")
        #expect(ControlMessage(decoding: line.dropLast()) == .cancel(id))
        let reordered = #" {"id":"3f9c.12","type":"cancel","v":1,"x":[1]} "#
        #expect(ControlMessage(decoding: Array(reordered.utf8)) == .cancel(id))
        for text in [
            #"{"v":2,"type":"cancel","id":"a"}"#, #"{"v":1,"type":"pause","id":"a"}"#, #"{"v":1,"type":"cancel"}"#,
            #"{"v":1,"type":"cancel","id":"a b"}"#, #"{"v":1,"type":"cancel","id":"a","id":"b"}"#,
            #"{"type":"cancel","id":"a"}"#, "not json", #"{"v":1,"type":"cancel","id":"a"} x"#,
        ] {
            #expect(ControlMessage(decoding: Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test("A cancel on the unix: connection cancels the withActivity body, which ends cancelled")
    func unixConnection() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("sink").path
            let listener = try UnixListener(path: path)
            defer { listener.close() }
            let accepted = listener.acceptOne()
            let sink = try JSONLinesSink(.unixSocket(path: path))
            defer { sink.close() }
            let reporter = Reporter(sink: sink, parent: nil)
            let work = Task {
                try await ActivitySystem.$taskReporter.withValue(reporter) {
                    try await withActivity("Waiting", cancellable: true) { _ in
                        try await Task.sleep(for: .seconds(600))
                    }
                }
            }
            let connection = try #require(await accepted.value)
            defer { close(connection) }
            let lines = ConnectionLines(connection)
            let begin = try #require(await onThread { lines.next() }?.begin)
            #expect(begin.cancellable)
            let cancel = ControlMessage.cancel(begin.id).encoded()
            #expect(write(connection, cancel, cancel.count) == cancel.count)
            await #expect(throws: CancellationError.self) { try await work.value }
            let end = try #require(await onThread { lines.next() }?.end)
            #expect(end.id == begin.id && end.status == .cancelled)
        }
    }

    @Test("ACTIVITY_CONTROL: cancels that are not for a cancellable open activity of ours are ignored")
    func ignoreRules() async throws {
        var sinkPipe: [Int32] = [-1, -1]
        var controlPipe: [Int32] = [-1, -1]
        #expect(pipe(&sinkPipe) == 0 && pipe(&controlPipe) == 0)
        defer { (sinkPipe + controlPipe).forEach { _ = close($0) } }
        let drained = readToEnd(sinkPipe[0])
        let sink = try JSONLinesSink(.fileDescriptor(sinkPipe[1]), control: .fileDescriptor(controlPipe[0]))
        let reporter = Reporter(sink: sink, parent: nil)
        let calls = Atomic<Int>(0)
        let ignoredBefore = ControlReader.ignored.load(ordering: .relaxed)
        try await ActivitySystem.$taskReporter.withValue(reporter) {
            let plain = Activity.begin("not cancellable")
            let ended = Activity.begin("ended", cancellable: true)
            ended.end()
            let target = Activity.begin("target", cancellable: true)
            #expect(target.onCancel { calls.add(1, ordering: .relaxed) })
            #expect(!plain.onCancel {})
            let marker = Activity.begin("marker", cancellable: true)
            func send(_ text: String) { _ = write(controlPipe[1], text, text.utf8.count) }
            func cancel(_ id: ActivityID) { send(String(decoding: ControlMessage.cancel(id).encoded(), as: UTF8.self)) }
            cancel(plain.id)
            cancel(ended.id)
            cancel(ActivityID("0123456789abcdef.9")!)
            send("{\"v\":1,\"type\":\"pause\",\"id\":\"\(target.id)\"}\nnot json\n")
            cancel(marker.id)
            try await waitUntil { marker.isCancelled }
            #expect(!plain.isCancelled && !target.isCancelled && calls.load(ordering: .relaxed) == 0)
            #expect(ControlReader.ignored.load(ordering: .relaxed) - ignoredBefore >= 5)

            cancel(target.id)
            cancel(target.id)
            let second = Activity.begin("second marker", cancellable: true)
            cancel(second.id)
            try await waitUntil { second.isCancelled }
            #expect(target.isCancelled && calls.load(ordering: .relaxed) == 1)
            for activity in [plain, target, marker, second] { activity.end(.cancelled) }
        }
        sink.close()
        close(sinkPipe[1])
        sinkPipe[1] = -1
        #expect(problems(inLines: drained.wait()) == [])
    }

    @Test("onCancel: at once when already cancelled, never after the end, once however often cancelled")
    func onCancelHandlers() async throws {
        await withInMemoryReporter { _ in
            let calls = Atomic<Int>(0)
            let activity = Activity.begin("Work", cancellable: true)
            #expect(activity.onCancel { calls.add(1, ordering: .relaxed) })
            #expect(activity.cancel())
            #expect(!activity.cancel())
            #expect(ActivitySystem.cancel(activity.id) == false)
            #expect(calls.load(ordering: .relaxed) == 1)
            #expect(activity.onCancel { calls.add(10, ordering: .relaxed) })
            #expect(calls.load(ordering: .relaxed) == 11)
            activity.end(.cancelled)
            #expect(!activity.onCancel { calls.add(100, ordering: .relaxed) })
            #expect(calls.load(ordering: .relaxed) == 11)
        }
    }
}

/// Waits, at most `seconds` (five by default), for `condition`.
func waitUntil(within seconds: Int = 5, _ condition: () -> Bool) async throws {
    guard await Poll.until(timeout: Double(seconds), condition) else {
        throw TestError("condition not met within \(seconds) s")
    }
}

/// Reads the events of a connection one line at a time, waiting at most 30 seconds for each (a
/// bound for a broken run only). Used from one thread at a time, never from a task's own thread.
final class ConnectionLines: @unchecked Sendable {
    private let fd: Int32
    private var pending: [UInt8] = []

    init(_ fd: Int32) { self.fd = fd }

    func next() -> ActivityEvent? {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[..<newline])
                pending.removeFirst(newline + 1)
                return ActivityEventDecoder().decode(line).event
            }
            var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            // Minutes: in a busy test run the producer's task may wait long for a thread.
            guard poll(&request, 1, 300_000) == 1 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return nil }
            pending += buffer[..<count]
        }
    }
}

extension UnixListener {
    /// Accepts one connection, waiting at most five minutes (the test task may wait long for a thread).
    func acceptOne() -> ThreadFuture<Int32?> {
        let fd = self.fd
        return ThreadFuture {
            var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, 300_000) == 1 else { return nil }  // long: the test task may wait for a thread
            let connection = Glibc.accept(fd, nil, nil)
            return connection >= 0 ? connection : nil
        }
    }
}
