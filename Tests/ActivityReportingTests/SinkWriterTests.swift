import ActivityWire
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ActivityReporting

#if canImport(Glibc)
    import Glibc
#endif

/// A scripted run through a reporter: nested activities, progress, logs, every status.
func runScenario(on sink: any ActivityEventSink) async {
    let reporter = Reporter(sink: sink, parent: nil)
    ActivitySystem.$taskReporter.withValue(reporter) {
        withActivity("Build", total: 3, unit: "targets", attrs: ["x-tool": "make", "x-jobs": 2]) { build in
            withActivity("Compile", total: 10) { compile in
                for _ in 0..<10 { compile.advance() }
                compile.log("warning: unused variable", level: .warning)
            }
            build.advance()
            _ = try? withActivity("Link") { _ in throw TestError("undefined symbol: main") }
            build.advance()
            _ = try? withActivity("Test", cancellable: true) { _ in throw CancellationError() }
            let skipped = Activity.begin("Docs")
            skipped.end(.skipped, message: "no doc tool")
            build.update(completed: 3, message: "done — 3 targets, ✔ 日本語 🚀")
        }
    }
    sink.flush(timeout: 5)
}

@Suite("JSON-lines sinks")
struct SinkWriterTests {
    @Test("A file sink appends valid lines that decode and validate")
    func file() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("events.jsonl").path
            try await runScenario(on: JSONLinesSink(.file(path: path)))
            try await runScenario(on: JSONLinesSink(.file(path: path)))
            let bytes = readBytes(URL(fileURLWithPath: path))
            let events = decodeEvents(bytes)
            #expect(events.compactMap(\.begin).count == 10)
            #expect(events.compactMap(\.end).count == 10)
            #expect(problems(inLines: bytes) == [])
            #expect(events.compactMap(\.end).map(\.status).filter { $0 == .failure }.count == 2)
        }
    }

    @Test("A pipe whose reader has gone away: no SIGPIPE death, no error, flags unchanged")
    func deadReader() async throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[1]) }
        close(fds[0])
        let flags = fcntl(fds[1], F_GETFL)
        let sink = try JSONLinesSink(.fileDescriptor(fds[1]))
        await runScenario(on: sink)
        for index in 0..<200 { sink.send(.log(.init(message: "line \(index)"))) }
        sink.close()
        #expect(fcntl(fds[1], F_GETFL) == flags)
    }

    @Test("A socket whose peer has gone away: no SIGPIPE death")
    func deadSocketPeer() async throws {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[0]) }
        close(fds[1])
        let sink = try JSONLinesSink(.fileDescriptor(fds[0]))
        await runScenario(on: sink)
        sink.close()
    }

    @Test("A stalled reader makes begin and end wait a bounded time, then drops; the hot path never waits")
    func stalledReader() async throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let sink = try JSONLinesSink(.fileDescriptor(fds[1]), waitLimit: 0.02, queueLimit: 8)
        let title = String(repeating: "x", count: 3000)
        for index in 0..<200 {
            sink.send(.log(.init(message: "\(index) \(title)")))
        }
        #expect(sink.droppedLines > 0)
        sink.flush(timeout: 0.05)
        sink.close(timeout: 0)
        // The reader wakes up: what was written is whole lines.
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        let flags = fcntl(fds[0], F_GETFL)
        _ = fcntl(fds[0], F_SETFL, flags | O_NONBLOCK)
        let count = read(fds[0], &buffer, buffer.count)
        #expect(count > 0)
        let lines = buffer[..<max(count, 0)].split(separator: 0x0A)
        #expect(lines.allSatisfy { ActivityEventDecoder().decode($0).event != nil })
    }

    @Test("A Unix socket sink: one connection, every line arrives in order")
    func unixSocket() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("sink").path
            let listener = try UnixListener(path: path)
            defer { listener.close() }
            let received = listener.acceptAndReadAll()
            do {
                let sink = try JSONLinesSink(.unixSocket(path: path))
                await runScenario(on: sink)
                sink.close()
            }
            let bytes = try #require(await received.value)
            #expect(problems(inLines: bytes) == [])
            #expect(decodeEvents(bytes).compactMap(\.end).count == 5)
        }
    }

    @Test("Many writers on one pipe: every line arrives whole")
    func sharedPipe() async throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let reader = fds[0]
        let collected = readToEnd(reader)
        let writers = 4
        let threads = 4
        let lines = 300
        let sinks = try (0..<writers).map { _ in try JSONLinesSink(.fileDescriptor(fds[1]), waitLimit: 5) }
        await onThread {
            DispatchQueue.concurrentPerform(iterations: writers * threads) { index in
                let sink = sinks[index % writers]
                let padding = String(repeating: "p", count: 200 + index * 150)
                for line in 0..<lines {
                    sink.send(.log(.init(message: "\(index) \(line) \(padding)")))
                }
            }
        }
        for sink in sinks { sink.close(timeout: 10) }
        close(fds[1])
        let bytes = await collected.value
        close(reader)
        let events = decodeEvents(bytes)
        #expect(events.count == writers * threads * lines)
        #expect(sinks.map(\.droppedLines) == Array(repeating: 0, count: writers))
    }

    @Test("After fork() the child opens its own connection and makes its own ids")
    func fork() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("sink").path
            let listener = try UnixListener(path: path)
            defer { listener.close() }
            let first = listener.acceptAndReadAll()
            let second = listener.acceptAndReadAll()
            var environment = ProcessInfo.processInfo.environment
            environment["ACTIVITY_SINK"] = "unix:\(path)"
            environment["ACTIVITY_PARENT"] = nil
            let result = try await runProcess(
                CommandRunner.binFolder.appendingPathComponent("activity-sdk-fork-helper"), environment: environment
            )
            #expect(result.status == 0)
            let printed = result.output
            let parentID = try #require(
                ActivityID(String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
            let streams = [try #require(await first.value), try #require(await second.value)].map(decodeEvents)
            let parentStream = try #require(streams.first { $0.first?.begin?.id == parentID })
            let childStream = try #require(streams.first { $0.first?.begin?.id != parentID })
            #expect(parentStream.compactMap(\.begin).map(\.title) == ["Parent process"])
            #expect(parentStream.last?.end?.completed == 2)
            let child = try #require(childStream.first?.begin)
            #expect(child.title == "Forked child")
            #expect(child.parent == parentID)
            #expect(child.id.rawValue.split(separator: ".").first != parentID.rawValue.split(separator: ".").first)
            #expect(childStream.last?.end?.completed == 5)
        }
    }

    @Test("Lines longer than 4096 bytes are shortened, never split", arguments: [5000, 70_000])
    func longLines(length: Int) async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("long.jsonl").path
            let sink = try JSONLinesSink(.file(path: path))
            ActivitySystem.$taskReporter.withValue(Reporter(sink: sink, parent: nil)) {
                withActivity(String(repeating: "é", count: length), message: String(repeating: "m", count: length)) {
                    $0.log(String(repeating: "🚀", count: length))
                }
            }
            sink.flush(timeout: 5)
            let bytes = readBytes(URL(fileURLWithPath: path))
            #expect(problems(inLines: bytes) == [])
            #expect(bytes.split(separator: 0x0A).count == 3)
        }
    }

    @Test("Bad destinations give clear errors", arguments: ["", "tcp:1", "fd:x", "fd:-1", "unix:", "file:"])
    func badSpecs(spec: String) {
        #expect(throws: ActivitySinkError.self) { try ActivitySinkDestination(parsing: spec) }
    }

    @Test("Destinations round-trip through their ACTIVITY_SINK spelling")
    func specs() throws {
        for spec in ["unix:/tmp/a b/sink", "fd:3", "file:/tmp/x.jsonl", "stdout", "stderr", "none"] {
            #expect(try ActivitySinkDestination(parsing: spec).description == spec)
        }
        #expect(throws: ActivitySinkError.self) { try JSONLinesSink(.fileDescriptor(987)) }
        #expect(throws: ActivitySinkError.self) { try JSONLinesSink(.file(path: "/nonexistent/dir/x")) }
        #expect(throws: ActivitySinkError.self) { try JSONLinesSink(.unixSocket(path: "/nonexistent/sock")) }
    }
}

/// A listening Unix stream socket that accepts one connection and reads it to the end.
final class UnixListener: Sendable {
    let fd: Int32

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: Array(path.utf8) + [0])
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(fd, 8) == 0 else { throw TestError("cannot listen on \(path)") }
    }

    func acceptAndReadAll() -> ThreadFuture<[UInt8]?> {
        let fd = self.fd
        return ThreadFuture {
            do {
                // Bounded: a producer that never connects fails the test instead of hanging it.
                var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&request, 1, 300_000) == 1 else { return nil }  // long: the test task may wait for a thread
                let connection = accept(fd, nil, nil)
                guard connection >= 0 else { return nil }
                defer { Glibc.close(connection) }
                var result: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = read(connection, &buffer, buffer.count)
                    if count <= 0 { return result }
                    result += buffer[..<count]
                }
            }
        }
    }

    func close() {
        _ = Glibc.close(fd)
    }
}
