import CActivity
import Foundation

/// libactivity's hot path, called from Swift through the same C entry points as any C program
/// (`make -C Sources/CActivity bench` measures the same from C alone).
enum CLibraryBenchmarks {
    static func attached(settings: BenchSettings) throws -> [Figure] {
        guard activity_set_sink("file:/dev/null") == 0 else { throw BenchError("activity_set_sink failed") }
        let iterations = settings.iterations(50_000_000)
        guard let handle = activity_begin(nil, "bench", Double(iterations) * 10, nil) else {
            throw BenchError("activity_begin returned NULL")
        }
        let one = repeated(settings) {
            nanosecondsPerCall(iterations) { _ in _ = activity_advance(handle, 1) }
        }
        let perThread = iterations / 4
        let shared = SendableHandle(handle)
        let four = repeated(settings) {
            contendedNanosecondsPerCall(threads: 4, iterations: perThread) { _ = activity_advance(shared.pointer, 1) }
        }
        _ = activity_end(handle, ACTIVITY_STATUS_SUCCESS, nil)
        _ = activity_flush(1000)
        return [
            Figure(
                name: "C activity_advance, one thread, sink attached", unit: "ns/call", runs: one, target: 10,
                better: .lower, anchor: "indicatif inc(1) 30 ns, tqdm update(1) 120 ns"),
            Figure(
                name: "C activity_advance, 4 threads on one activity", unit: "ns/call", runs: four, target: nil,
                better: .lower, anchor: nil, note: "wall time ÷ calls per thread, 4 threads on 2 cores"),
        ]
    }

    static func disabled(settings: BenchSettings) throws -> [Figure] {
        guard activity_set_sink("none") == 0 else { throw BenchError("activity_set_sink failed") }
        let iterations = settings.iterations(200_000_000)
        let handle = activity_begin(nil, "bench", -1, nil)
        let runs = repeated(settings) {
            nanosecondsPerCall(iterations) { _ in _ = activity_advance(handle, 1) }
        }
        _ = activity_end(handle, ACTIVITY_STATUS_SUCCESS, nil)
        return [
            Figure(
                name: "C activity_advance, reporting disabled", unit: "ns/call", runs: runs, target: 2, better: .lower,
                anchor: nil)
        ]
    }

    static func pipeThroughput(settings: BenchSettings) throws -> [Figure] {
        let drain = try PipeDrain()
        guard activity_set_sink("fd:\(drain.writeEnd)") == 0 else { throw BenchError("activity_set_sink failed") }
        let pairs = settings.iterations(200_000)
        let runs = repeated(settings) {
            let start = nowNanoseconds()
            for _ in 0..<pairs {
                _ = activity_end(activity_begin(nil, "step", -1, nil), ACTIVITY_STATUS_SUCCESS, nil)
            }
            _ = activity_flush(10_000)
            return Double(pairs * 2) / (Double(nowNanoseconds() - start) / 1e9)
        }
        return [
            Figure(
                name: "C library events written to a pipe (begin/end pairs)", unit: "events/s", runs: runs, target: nil,
                better: .higher, anchor: nil)
        ]
    }
}

/// A C handle shared across threads; the library documents handles as thread-safe.
struct SendableHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}
