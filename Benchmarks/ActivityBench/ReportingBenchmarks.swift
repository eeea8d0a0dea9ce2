import ActivityReporting
import Foundation

/// The Swift SDK's hot path. Each section runs in its own process, since bootstrap happens once.
enum ReportingBenchmarks {
    /// `advance(by: 1)` with JSON lines going to /dev/null through the real writer and flusher.
    static func attached(settings: BenchSettings) throws -> [Figure] {
        try ActivitySystem.bootstrap(.file(path: "/dev/null"))
        let iterations = settings.iterations(50_000_000)
        let activity = Activity.begin("bench", total: Double(iterations) * 10)
        let one = repeated(settings) {
            nanosecondsPerCall(iterations) { _ in activity.advance(by: 1) }
        }
        let four = repeated(settings) {
            contendedNanosecondsPerCall(threads: 4, iterations: iterations / 4) { activity.advance(by: 1) }
        }
        activity.end()
        ActivitySystem.flush(timeout: 1)
        return [
            Figure(
                name: "Swift advance(by: 1), one thread, sink attached", unit: "ns/call", runs: one, target: 10,
                better: .lower, anchor: "indicatif inc(1) 30 ns, tqdm update(1) 120 ns"),
            Figure(
                name: "Swift advance(by: 1), 4 threads on one activity", unit: "ns/call", runs: four, target: nil,
                better: .lower, anchor: nil, note: "wall time ÷ calls per thread, 4 threads on 2 cores"),
        ]
    }

    /// `advance(by: 1)` when nothing is reported (`ACTIVITY_SINK` unset).
    static func disabled(settings: BenchSettings) throws -> [Figure] {
        try ActivitySystem.bootstrap(.none)
        let iterations = settings.iterations(100_000_000)
        let activity = Activity.begin("bench", total: Double(iterations))
        let runs = repeated(settings) {
            nanosecondsPerCall(iterations) { _ in activity.advance(by: 1) }
        }
        activity.end()
        return [
            Figure(
                name: "Swift advance(by: 1), reporting disabled", unit: "ns/call", runs: runs, target: nil,
                better: .lower, anchor: nil)
        ]
    }

    /// Begin/end pairs per second written to a pipe that a thread drains: nothing to coalesce.
    static func pipeThroughput(settings: BenchSettings) throws -> [Figure] {
        let drain = try PipeDrain()
        try ActivitySystem.bootstrap(.fileDescriptor(drain.writeEnd))
        let pairs = settings.iterations(200_000)
        let runs = repeated(settings) {
            let start = nowNanoseconds()
            for _ in 0..<pairs {
                Activity.begin("step", parent: nil).end()
            }
            ActivitySystem.flush(timeout: 10)
            return Double(pairs * 2) / (Double(nowNanoseconds() - start) / 1e9)
        }
        return [
            Figure(
                name: "Swift SDK events written to a pipe (begin/end pairs)", unit: "events/s", runs: runs, target: nil,
                better: .higher, anchor: nil)
        ]
    }
}

/// A pipe whose read end a background thread empties, so writers never stall.
final class PipeDrain: @unchecked Sendable {
    let writeEnd: Int32
    private let readEnd: Int32
    private let thread: Thread

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw BenchError("pipe() failed: errno \(errno)") }
        readEnd = fds[0]
        writeEnd = fds[1]
        let fd = readEnd
        thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
        }
        thread.start()
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
