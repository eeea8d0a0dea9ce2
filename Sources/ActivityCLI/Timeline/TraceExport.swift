import ActivityPOSIX
import ActivityTimeline
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `activity export` in bounded memory: activities are forgotten as they end, their pieces of the
/// output wait in an ``ExportSpool``, and the output is written a buffer at a time. The bytes are
/// those of ``ChromeTraceWriter/write(_:)`` and ``OTLPTraceWriter/write(_:)`` on the whole timeline.
enum TraceExport {
    /// OTLP JSON in one pass: a span needs nothing but its activity.
    static func otlp(_ file: String, writer: OTLPTraceWriter, to path: String) -> Int32 {
        let spool: ExportSpool
        switch ExportSpool.make() {
        case .success(let made): spool = made
        case .failure(let error): return report(error, path: path)
        }
        let encoder = OTLPSpanEncoder()
        let status = withInput(file) { fd, name in
            RecordingPass.run(fd, name: name, command: "export", reportsProblems: true) { activity, _ in
                spool.append(encoder.span(for: activity), at: activity.sequence)
            }.map { _ in () }
        }
        if let status { return status }
        return withOutput(path) { (output) throws(ExportFailure) in
            try output.write(writer.requestOpening)
            try spool.replay(separator: ",") { (bytes) throws(ExportFailure) in try output.write(bytes) }
            try output.write(writer.requestClosing + "\n")
        }
    }

    /// A Chrome trace in two passes: the first makes the ``ChromeTracePlan`` (which slices are
    /// complete events, which activities have counters, where time starts), the second the events.
    /// Standard input, or any input that is not a regular file, is copied to a temporary file first.
    static func chromeTrace(_ file: String, writer: ChromeTraceWriter, to path: String) -> Int32 {
        let spool: ExportSpool
        switch ExportSpool.make() {
        case .success(let made): spool = made
        case .failure(let error): return report(error, path: path)
        }
        var plan = ChromeTracePlan()
        var looseLogs: [TimelineLog] = []
        var counters: [Int: String] = [:]
        let status = withInput(file) { fd, name -> Result<Void, RecordingError> in
            RecordingPass.twice(fd, name: name, command: "export") {
                plan.record($0, parent: $1)
            } second: { summary in
                for log in summary.looseLogs { plan.record(looseLogAt: log.time) }
                looseLogs = summary.looseLogs
                let origin = plan.origin
                let sync = plan.synchronous()
                let counted = Set(plan.counterTracks(limit: writer.maxCounterTracks))
                return { activity, _ in
                    let index = activity.sequence
                    // The file changed between the passes (only then is an activity not in the plan).
                    let synchronous = index < sync.count && sync[index]
                    spool.append(
                        writer.events(for: activity, synchronous: synchronous, origin: origin).joined(separator: ",\n"),
                        at: index)
                    if counted.contains(index) {
                        counters[index] = writer.counterEvents(for: activity, origin: origin).joined(separator: ",\n")
                    }
                }
            }.map { _ in () }
        }
        if let status { return status }
        return withOutput(path) { (output) throws(ExportFailure) in
            try output.write(writer.opening(origin: plan.origin))
            try output.write(writer.metadata(processName: plan.processName).joined(separator: ",\n"))
            try spool.replay(separator: ",\n", beforeFirst: true) { (bytes) throws(ExportFailure) in
                try output.write(bytes)
            }
            for log in looseLogs { try output.write(",\n" + writer.looseLog(log, origin: plan.origin)) }
            for index in counters.keys.sorted() where !counters[index]!.isEmpty {
                try output.write(",\n" + counters[index]!)
            }
            try output.write(writer.closing)
        }
    }

    /// Runs `body` on the opened input; the exit status after a message when it fails.
    private static func withInput(
        _ file: String, _ body: (Int32, String) -> Result<Void, RecordingError>
    ) -> Int32? {
        let name = CommandInput.name(file)
        guard let fd = CommandInput.descriptor(for: file) else {
            Console.error("\(file): \(SystemError.reason(errno))", command: "export")
            return ExitCode.noInput
        }
        defer { CommandInput.release(fd) }
        if case .failure(let error) = body(fd, name) {
            Console.error(error.message, command: "export")
            return error.exitStatus
        }
        return nil
    }

    /// Creates `path` (`-`: standard output) and writes to it; the exit status.
    private static func withOutput(
        _ path: String, _ body: (inout BufferedOutput) throws(ExportFailure) -> Void
    ) -> Int32 {
        let fd = path == "-" ? 1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            Console.error("\(path): \(SystemError.reason(errno))", command: "export")
            return ExitCode.cannotCreate
        }
        defer { if fd != 1 { close(fd) } }
        var output = BufferedOutput(fileDescriptor: fd)
        do throws(ExportFailure) {
            try body(&output)
            try output.flush()
        } catch {
            return report(error, path: path)
        }
        return ExitCode.success
    }

    private static func report(_ failure: ExportFailure, path: String) -> Int32 {
        switch failure {
        case .output(let error) where error.readerIsGone: return ExitCode.success
        case .output(let error): Console.error("\(path): \(error.reason)", command: "export")
        case .temporaryFile(let error):
            Console.error("temporary file in TMPDIR: \(error.reason)", command: "export")
        }
        return ExitCode.ioError
    }
}
