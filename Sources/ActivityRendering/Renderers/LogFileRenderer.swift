import ActivityPOSIX
import ActivityTerminal
public import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Appends a durable record of the stream to a file: human `text`, or replayable `jsonl`.
///
/// The file is opened with `O_APPEND` and every line is written with one `write(2)` as soon as
/// it is known, so a killed process leaves only whole lines behind.
///
/// The `text` format is logfmt-like, one line per begin, end, log line, passed-through line and
/// input problem, each starting with an RFC 3339 UTC timestamp, and a summary at the end:
///
/// ```text
/// 2026-11-29T12:00:00.000Z begin id=dl title=Downloading total=3 unit=files
/// 2026-11-29T12:00:03.250Z end id=dl title=Downloading status=success duration=3.250s
/// 2026-11-29T12:00:03.300Z summary activities=1 succeeded=1 duration=3.300s
/// ```
///
/// Values are quoted when they hold spaces, `=` or quotes; control characters, bidirectional
/// controls and invisible characters are escaped (`\n`, `\x1b`, `\u{202e}`), never written raw.
/// The `jsonl` format is ``JSONLinesRenderer``'s.
public final class LogFileRenderer: ActivityRenderer {
    let format: LogFormat
    let output: any ByteOutput
    let clock: @Sendable () -> Double
    private let ownedDescriptor: Int32?
    /// The file's path, when the renderer opened it.
    package let path: String?
    private let jsonLines: JSONLinesRenderer
    /// The titles of open activities as they arrived: the store keeps them sanitized for display,
    /// but the log shows what arrived, escaped.
    private var arrivedTitles: [ActivityHandle: String] = [:]
    private var outputLines: [StandardStream: LineSplitter] = [:]

    /// Opens (or creates, mode 0644) `path` for appending.
    ///
    /// - Throws: ``RenderError`` when the file cannot be opened for writing.
    public init(
        path: String, format: LogFormat, clock: @escaping @Sendable () -> Double = WallClock.now
    )
        throws(RenderError)
    {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .logFile(path: path, reason: SystemError.reason(errno))
        }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw .logFile(path: path, reason: "it is a directory")
        }
        self.format = format
        self.output = FileDescriptorOutput(fileDescriptor: descriptor)
        self.clock = clock
        self.ownedDescriptor = descriptor
        self.path = path
        self.jsonLines = JSONLinesRenderer(output: output)
    }

    /// Writes the log to `output`, which the caller owns.
    package init(output: any ByteOutput, format: LogFormat, clock: @escaping @Sendable () -> Double = WallClock.now) {
        self.format = format
        self.output = output
        self.clock = clock
        self.ownedDescriptor = nil
        self.path = nil
        self.jsonLines = JSONLinesRenderer(output: output)
    }

    /// Why writing the file stopped (`ENOSPC` on a full disk, `EIO`), as the `errno` of the write
    /// that failed; `nil` while it takes every line. Nothing more is written after a failure, so
    /// the log ends at the last whole write.
    package var writeFailure: Int32? {
        guard let output = output as? FileDescriptorOutput, output.isBroken else { return nil }
        return output.failure
    }

    deinit {
        if let ownedDescriptor { close(ownedDescriptor) }
    }

    public func render(_ update: ActivityUpdate, in store: ActivityStore) {
        if format == .jsonl { return jsonLines.render(update, in: store) }
        if update.kind == .progress {
            // Most progress events have no title: the log writes nothing for them.
            if let title = update.progressTitle, let handle = update.handle, arrivedTitles[handle] != nil {
                arrivedTitles[handle] = title
            }
            return
        }
        let time = update.timestamp
        switch update.event(in: store) {
        case .begin(let begin):
            if let handle = update.handle { arrivedTitles[handle] = begin.title }
            var fields: [(String, String)] = [("id", begin.id.rawValue), ("title", begin.title)]
            if let parent = begin.parent { fields.append(("parent", parent.rawValue)) }
            if let total = begin.total { fields.append(("total", Formatting.count(total))) }
            if begin.completed > 0 { fields.append(("completed", Formatting.count(begin.completed))) }
            if let unit = begin.unit { fields.append(("unit", unit)) }
            if let message = begin.message { fields.append(("message", message)) }
            write(time, "begin", fields)
        case .progress:
            break
        case .log(let log):
            var fields: [(String, String)] = [("level", log.level.rawValue)]
            if let id = log.id { fields.append(("id", id.rawValue)) }
            fields.append(("message", log.message))
            write(time, "log", fields)
        case .end(let end):
            var fields: [(String, String)] = [("id", end.id.rawValue)]
            let arrivedTitle = update.handle.flatMap { arrivedTitles.removeValue(forKey: $0) }
            if let activity = update.handle.flatMap({ store[$0] }) {
                fields.append(("title", arrivedTitle ?? activity.title))
                fields.append(("status", end.status.rawValue))
                fields.append(("duration", Formatting.fixed(activity.duration(at: time), decimals: 3) + "s"))
                if let total = activity.total { fields.append(("total", Formatting.count(total))) }
                if activity.completed > 0 { fields.append(("completed", Formatting.count(activity.completed))) }
            } else {
                fields.append(("status", end.status.rawValue))
            }
            if let message = end.message { fields.append(("message", message)) }
            if let error = end.error { fields.append(("error", error)) }
            write(time, "end", fields)
        }
    }

    /// One `output` record per line of the stream, written when the line is complete.
    public func passthrough(_ bytes: [UInt8], to stream: StandardStream, in store: ActivityStore) {
        guard format == .text else { return }
        var splitter = outputLines[stream] ?? LineSplitter(maxLineBytes: WireLimits.maxAcceptedLineBytes)
        let time = store.streamTime(clock())
        splitter.feed(bytes) { writeOutput($0, of: stream, at: time) }
        outputLines[stream] = splitter
    }

    private func writeOutput(_ piece: LineSplitter.Piece, of stream: StandardStream, at time: Double) {
        let text = String(decoding: piece.bytes, as: UTF8.self)
        write(time, "output", [("stream", stream == .stdout ? "stdout" : "stderr"), ("text", text)])
    }

    public func report(_ diagnostic: Diagnostic, in store: ActivityStore) {
        guard format == .text else { return }
        var fields: [(String, String)] = []
        if let source = diagnostic.source { fields.append(("source", source)) }
        if diagnostic.line > 0 { fields.append(("line", String(diagnostic.line))) }
        fields += [("code", diagnostic.code.rawValue), ("message", diagnostic.message)]
        write(store.streamTime(clock()), "problem", fields)
    }

    public func notice(_ message: String, in store: ActivityStore) {
        guard format == .text else { return }
        write(store.streamTime(clock()), "notice", [("message", message)])
    }

    public func finish(_ store: ActivityStore, now: Double) {
        guard format == .text else { return }
        for (stream, var splitter) in outputLines {
            splitter.finish { writeOutput($0, of: stream, at: now) }
        }
        outputLines.removeAll()
        let summary = store.summary
        var fields: [(String, String)] = [("activities", String(summary.begun))]
        let words: [(ActivityEvent.Status, String)] = [
            (.success, "succeeded"), (.failure, "failed"), (.cancelled, "cancelled"), (.skipped, "skipped"),
            (.abandoned, "abandoned"),
        ]
        for (status, word) in words where summary.count(status) > 0 {
            fields.append((word, String(summary.count(status))))
        }
        if summary.dropped > 0 { fields.append(("dropped", String(summary.dropped))) }
        if summary.diagnosticCount > 0 { fields.append(("problems", String(summary.diagnosticCount))) }
        let start = summary.firstTime ?? now
        fields.append(
            ("duration", Formatting.fixed(max(0, max(now, summary.lastTime ?? now) - start), decimals: 3) + "s"))
        write(now, "summary", fields)
    }

    private func write(_ time: Double, _ kind: String, _ fields: [(String, String)]) {
        var line = Formatting.timestamp(time) + " " + kind
        for (key, value) in fields {
            line += " " + key + "=" + Self.quoted(value)
        }
        line += "\n"
        output.writeDisplayLine(Array(line.utf8))
    }

    /// A logfmt value: bare when it is a plain word, else quoted with `\`, `"` and every control
    /// character escaped.
    static func quoted(_ value: String) -> String {
        var needsQuotes = value.isEmpty
        var body = ""
        let scalars = Array(value.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "\"": body += "\\\""; needsQuotes = true
            case "\\": body += "\\\\"; needsQuotes = true
            case " ", "=": body.unicodeScalars.append(scalar); needsQuotes = true
            default:
                let shown: Bool
                switch TerminalSanitizer.classify(scalar) {
                case .keep: shown = true
                case .space, .drop: shown = false
                case .joiner:
                    shown =
                        index > 0 && index + 1 < scalars.count
                        && TerminalSanitizer.joinsEmoji(after: scalars[index - 1], before: scalars[index + 1])
                }
                if shown {
                    body.unicodeScalars.append(scalar)
                } else {
                    body += TerminalSanitizer.escape(scalar)
                    needsQuotes = true
                }
            }
        }
        return needsQuotes ? "\"" + body + "\"" : body
    }
}

/// The format of a log file: human-readable text, or the replayable JSON-lines stream.
public enum LogFormat: String, Sendable, CaseIterable {
    case text, jsonl
}
