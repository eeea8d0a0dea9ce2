import ActivityWire
import Foundation
import InMemoryActivity
import Synchronization
import TestSupport
import Testing

@testable import ActivityReporting

/// Runs `body` with its own in-memory reporter bound to the task, so tests run in parallel without
/// touching the process-wide bootstrap.
func withInMemoryReporter<R>(
    parent: ActivityID? = nil, flushesInBackground: Bool = false,
    _ body: (InMemoryActivitySink) async throws -> R
) async rethrows -> R {
    let sink = InMemoryActivitySink()
    let reporter = Reporter(sink: sink, parent: parent, flushesInBackground: flushesInBackground)
    return try await ActivitySystem.$taskReporter.withValue(reporter) {
        try await body(sink)
    }
}

/// Encodes, decodes and validates a stream of events: the problems a consumer would report.
func problems(in events: [ActivityEvent], allowOpen: Bool = false) -> [Diagnostic] {
    var bytes: [UInt8] = []
    let encoder = ActivityEventEncoder()
    for event in events { encoder.encode(event, into: &bytes) }
    return problems(inLines: bytes, allowOpen: allowOpen)
}

/// Decodes and validates JSON lines: every line must be an event, and the stream must break no
/// rule across lines.
func problems(inLines bytes: [UInt8], allowOpen: Bool = false) -> [Diagnostic] {
    var validator = StreamValidator()
    var result: [Diagnostic] = []
    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() where !(index == lines.count - 1 && line.isEmpty) {
        #expect(line.count < WireLimits.maxProducedLineBytes, "line \(index + 1) is \(line.count) bytes")
        switch ActivityEventDecoder().decode(line, line: index + 1) {
        case .event(let event): result += validator.check(event, line: index + 1)
        case let other:
            result.append(other.diagnostic ?? Diagnostic(line: index + 1, code: .invalidJSON, message: "blank"))
        }
    }
    if !allowOpen { result += validator.finish(atLine: lines.count) }
    return result
}

/// Decodes JSON lines into events, recording an issue for any line that is not one.
func decodeEvents(_ bytes: [UInt8]) -> [ActivityEvent] {
    bytes.split(separator: 0x0A).enumerated().compactMap { index, line in
        let decoded = ActivityEventDecoder().decode(line, line: index + 1)
        #expect(decoded.event != nil, "line \(index + 1): \(String(decoding: line, as: UTF8.self))")
        return decoded.event
    }
}

extension ActivityEvent {
    var begin: Begin? { if case .begin(let e) = self { e } else { nil } }
    var progress: Progress? { if case .progress(let e) = self { e } else { nil } }
    var end: End? { if case .end(let e) = self { e } else { nil } }
    var log: Log? { if case .log(let e) = self { e } else { nil } }
}

/// A fresh temporary folder, removed by `body`'s end.
func withTemporaryFolder<R>(_ body: (URL) async throws -> R) async rethrows -> R {
    let folder = try! TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    return try await body(folder.url)
}

func readBytes(_ url: URL) -> [UInt8] {
    (try? [UInt8](Data(contentsOf: url))) ?? []
}

struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Every `completed` value the stream gives for `id`, from `progress` and `end` lines, in order.
func completedValues(_ events: [ActivityEvent], _ id: ActivityID) -> [Double] {
    events.compactMap { event in
        switch event {
        case .progress(let p) where p.id == id: p.completed
        case .end(let e) where e.id == id: e.completed
        default: nil
        }
    }
}

/// The last `completed` value the stream gives for `id`.
func finalCompleted(_ events: [ActivityEvent], _ id: ActivityID) -> Double? {
    completedValues(events, id).last
}

/// Runs blocking `body` (reads, waits, `concurrentPerform`) on a thread of its own, so that it
/// never holds one of the few threads that run tasks.
func onThread<R: Sendable>(_ body: @escaping @Sendable () -> R) async -> R {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

/// The result of work started on a thread of its own at once (not when a task gets to run it).
final class ThreadFuture<R: Sendable>: Sendable {
    private struct State {
        var result: R?
        var waiter: CheckedContinuation<R, Never>?
    }

    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> R) {
        Thread.detachNewThread { [self] in
            let result = body()
            let waiter = state.withLock { state in
                state.result = result
                return state.waiter.take()
            }
            done.signal()
            waiter?.resume(returning: result)
        }
    }

    /// Blocks the calling thread (never a task's) until the result is there.
    func wait() -> R {
        done.wait()
        done.signal()
        return state.withLock { $0.result! }
    }

    var value: R {
        get async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> R? in
                    if state.result == nil { state.waiter = continuation }
                    return state.result
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}

/// Reads `fd` to its end on a thread of its own, started now.
func readToEnd(_ fd: Int32) -> ThreadFuture<[UInt8]> {
    ThreadFuture {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { return result }
            result += buffer[..<count]
        }
    }
}

/// What a child process printed and how it ended.
struct ProcessResult: Sendable {
    var status: Int32
    var output: Data
    var errors = Data()
    var text: String { String(decoding: output, as: UTF8.self) }
}

/// Runs a program to its end on a thread of its own, with exactly `environment`, and returns its
/// status and what it printed (through TestSupport's one spawn; its output goes to files).
func runProcess(
    _ executable: URL, _ arguments: [String] = [], environment: [String: String]
) async throws
    -> ProcessResult
{
    let result: Result<ProcessResult, any Error> = await onThread {
        do {
            let folder = try TemporaryFolder()
            let output = folder.url.appendingPathComponent("stdout").path
            let errors = folder.url.appendingPathComponent("stderr").path
            let pid = try CommandRunner.spawn(
                executable.path, arguments, environment: environment, stdin: "/dev/null", stdout: output,
                stderr: errors, closesOtherDescriptors: true)
            let ended = CommandRunner.wait(pid, timeout: 600, what: executable.lastPathComponent)
            return .success(
                ProcessResult(
                    status: ended.killed ? 128 + ended.code : ended.code,
                    output: FileManager.default.contents(atPath: output) ?? Data(),
                    errors: FileManager.default.contents(atPath: errors) ?? Data()))
        } catch {
            return .failure(error)
        }
    }
    return try result.get()
}
