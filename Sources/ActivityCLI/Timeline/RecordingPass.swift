import ActivityTimeline
import ActivityWire

/// One pass over a recording that hands over each activity as it ends and then forgets it, so
/// memory holds the activities open at once, not the recording.
///
/// It folds exactly as ``Timeline/read(_:diagnostics:)`` does (the same builder rules, an id
/// that ended never begins again), so what it hands over is what a whole timeline holds.
enum RecordingPass {
    struct Summary {
        var events: Int
        /// Lines that were not events.
        var skippedLines: Int
        /// Log lines that belong to no activity (kept: they are few in a recording).
        var looseLogs: [TimelineLog]
    }

    /// Folds the recording on `fd`, calling `ended` with each activity once it has ended (children
    /// before their parent) and its parent's ``TimelineActivity/sequence``. Lines that are not
    /// events are named on standard error when `reportsProblems`.
    static func run(
        _ fd: Int32, name: String, command: String, reportsProblems: Bool, byteLimit: Int? = nil,
        _ ended: (TimelineActivity, _ parent: Int?) -> Void
    ) -> Result<Summary, RecordingError> {
        var reader = EventStreamReader(
            source: LimitedSource(base: FileDescriptorSource(fileDescriptor: fd), limit: byteLimit ?? .max))
        var builder = TimelineBuilder(keepsEnded: false, remembersEndedIDs: true)
        var skipped = 0
        func hand(_ indices: [Int]) {
            for index in indices {
                ended(builder[index], builder[index].parent.map { builder[$0].sequence })
                builder.release(index)
            }
        }
        do {
            try reader.forEach { item in
                guard item.isLineStart else { return }
                switch item.decoded {
                case .event(let event): hand(builder.apply(event, fallbackTime: builder.latestTime ?? 0))
                case .blank, .ignored(nil): break
                case .text(let problem), .invalid(let problem), .ignored(let problem?):
                    skipped += 1
                    if reportsProblems {
                        Console.error(
                            "\(name):\(problem.line): \(problem.code.rawValue): \(problem.message); skipped",
                            command: command)
                    }
                }
            }
        } catch {
            return .failure(RecordingError(message: "\(name): \(error)", exitStatus: ExitCode.ioError))
        }
        hand(builder.finish())
        guard builder.eventCount > 0 else {
            return .failure(
                RecordingError(message: RecordingInput.notARecording(name), exitStatus: ExitCode.dataError))
        }
        return .success(Summary(events: builder.eventCount, skippedLines: skipped, looseLogs: builder.looseLogs))
    }
}

/// A byte source that stops after `limit` bytes: a second pass over a file that grew since
/// the first reads what the first did.
struct LimitedSource<Base: ByteSource>: ByteSource {
    var base: Base
    let limit: Int
    private var read = 0

    init(base: Base, limit: Int) {
        self.base = base
        self.limit = limit
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let room = min(buffer.count, limit - read)
        guard room > 0 else { return 0 }
        let count = try base.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<room]))
        read += count
        return count
    }
}
