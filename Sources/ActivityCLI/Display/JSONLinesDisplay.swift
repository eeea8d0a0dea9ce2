import ActivityWire
import Synchronization

/// A display that writes each event as a normalized JSON line on standard error, with `ts`
/// filled in, and passes other lines through unchanged.
final class JSONLinesDisplay: Display {
    private let lock = Mutex(())
    private let encoder = ActivityEventEncoder(maxLineBytes: WireLimits.maxAcceptedLineBytes)

    func handle(_ event: ActivityEvent) {
        var event = event
        if event.timestamp == nil { event.timestamp = POSIX.unixSeconds() }
        let line = encoder.encode(event)
        lock.withLock { _ in try? FileOutput.standardError.write(line) }
    }

    func passthrough(_ line: [UInt8], to stream: StandardStream) {
        let output = stream == .standardOutput ? FileOutput.standardOutput : FileOutput.standardError
        lock.withLock { _ in try? output.write(line + [UInt8(ascii: "\n")]) }
    }

    func report(_ diagnostic: Diagnostic) {
        lock.withLock { _ in
            try? FileOutput.standardError.write("activity: line \(diagnostic.line): \(diagnostic.code.rawValue): \(diagnostic.message)\n")
        }
    }

    func finish() {}
}
