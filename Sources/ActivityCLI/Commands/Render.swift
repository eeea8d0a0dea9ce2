import ActivityPOSIX
import ActivityRendering
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `activity render [display options] [FILE]`: draws the events of a stream on standard error and
/// passes every other line through to standard output.
enum RenderCommand {
    static let spec = CommandSpec(
        name: "render", summary: "draw the events a tool writes (tool | activity render)", arguments: "[FILE]",
        positionals: .file, optionGroups: [DisplayOptions.group, HistoryOption.group],
        description: """
            Reads activity events from FILE (or standard input, or '-') and draws them on standard
            error. Everything that is not an event passes through to standard output byte for byte, so
                tool | activity render > out.txt
            keeps the tool's own output in out.txt and shows progress on the terminal.
            """)
    static let parser = OptionParser(spec)

    static func run(_ arguments: [String]) throws(CommandLineError) -> Int32 {
        let parsed = try parser.parse(arguments)
        var options = try DisplayOptions(parsed, parser: parser)
        options.history = try HistoryOption.resolve(parsed, parser: parser)
        // Lines are written many at once while more input is already there (StreamFeeder
        // flushes before each read).
        options.batchesOutput = true
        try parser.expectPositionals(parsed, 0...1, names: "FILE")
        let file = parsed.positionals.first ?? "-"
        guard let fd = CommandInput.descriptor(for: file) else {
            Console.error("\(file): \(SystemError.reason(errno))", command: "render")
            return ExitCode.noInput
        }
        defer { CommandInput.release(fd) }
        if let status = options.refuseLogFile(readFrom: fd, command: "render") { return status }
        // A file is a recording, read at full speed; anything else comes as the work happens.
        options.eventsAreLive = !CommandInput.isRegularFile(fd)
        let display: SessionDisplay
        switch options.makeDisplay(command: "render") {
        case .success(let made): display = made
        case .failure(let error): return error.exitStatus
        }
        let watcher = SignalWatcher.start(finishing: display)
        let status = StreamFeeder(display: display).feed(fd: fd, name: file, command: "render")
        watcher.finish()
        return status
    }
}

/// Reads a stream into a display: events are handled, everything else passes through to
/// standard output byte for byte (a line longer than 64 KiB is not parsed, but passed on whole;
/// a missing final newline stays missing), broken events are reported. Optionally paced by the
/// events' timestamps. A standard output whose reader has gone away ends the reading at once.
struct StreamFeeder {
    let display: SessionDisplay
    var pacer: Pacer?
    private var session: RenderSession { display.session }

    /// How reading ended.
    enum Outcome: Equatable {
        case finished
        /// Standard output was closed by its reader (`… | head -1`).
        case outputClosed
        /// Reading failed: the display has seen everything read until then.
        case readFailed
    }

    /// Returns 0, or 74 when reading failed or an output could not be written (said, as `cat`
    /// says it, once the display is finished: ``WriteFailure``); standard output closed by its
    /// reader ends the process by SIGPIPE after the display is finished, as a filter in a
    /// pipeline does.
    func feed(fd: Int32, name: String, command: String) -> Int32 {
        var paced = 0
        var status: Int32
        let outcome = read(fd: fd, name: name, command: command, paced: &paced)
        switch outcome {
        case .finished:
            // A recording to play that held no event at all: said, as `report` says it.
            if pacer != nil && paced == 0 {
                Console.error(RecordingInput.notARecording(CommandInput.name(name)), command: command)
                status = ExitCode.dataError
            } else {
                status = ExitCode.success
            }
        case .readFailed: status = ExitCode.ioError
        case .outputClosed: status = ExitCode.success
        }
        // The summary is the log file's last line: a full disk shows once it is written.
        display.finish()
        if WriteFailure.report(session, command: command) {
            if status == ExitCode.success { status = ExitCode.ioError }
        } else if outcome == .outputClosed {
            SignalPipe.dieBy(SIGPIPE)
        }
        return status
    }

    /// `paced` counts the events played with their timing.
    func read(fd: Int32, name: String, command: String, paced: inout Int) -> Outcome {
        do {
            var reader = ReadAhead(source: FileDescriptorSource(fileDescriptor: fd))
            if let pacer {
                // Played as it is read: nothing to gain from reading ahead.
                reader.aheadAfterBytes = .max
                try readPaced(reader, pacer: pacer, paced: &paced)
            } else {
                // The fast path: events go on decoded in place, their texts still in the line,
                // read and decoded on a thread of their own once the stream is ahead.
                try reader.forEach(events: { session.handle($0, line: $1) }, others: pass, flush: writeGathered)
            }
        } catch is OutputClosed {
            return .outputClosed
        } catch {
            session.flushOutput()
            Console.error("\(CommandInput.name(name)): \(error)", command: command)
            return .readFailed
        }
        // The last lines may have been gathered: a reader that went away shows when they are written.
        session.flushOutput()
        return session.isClosed(.stdout) ? .outputClosed : .finished
    }

    /// A recording played at its pace: every event goes through the pacer.
    private func readPaced(_ reader: ReadAhead<FileDescriptorSource>, pacer: Pacer, paced: inout Int) throws {
        var pacer = pacer
        func play(_ event: ActivityEvent, line: Int) {
            var event = event
            paced += 1
            session.flushOutput()
            pacer.wait(for: event.timestamp)
            event.timestamp = SystemClock.unixTimestamp()
            session.handle(event, line: line)
        }
        try reader.forEach(
            events: { event, line in play(event.event(), line: line) },
            others: { item in
                guard case .event(let event) = item.decoded else { return try pass(item) }
                play(event, line: item.line)
            }, flush: writeGathered)
    }

    /// Writes what the display gathered, before the input may keep it waiting, so that a slow
    /// producer's line shows at once while a fast stream's lines are written many at a time.
    private func writeGathered() throws {
        session.flushOutput()
        if session.isClosed(.stdout) { throw OutputClosed() }
    }

    /// A line that is not an event in the canonical form: an event decoded the long way is
    /// handled, a diagnostic reported, anything else passed through to standard output.
    private func pass(_ item: StreamItem) throws {
        switch item.decoded {
        case .event(let event):
            session.handle(event, line: item.line)
            return
        case .text, .blank:
            break
        case .invalid(let diagnostic) where diagnostic.code == .lineTooLong:
            // Too long to be an event (producers keep theirs under 4 KiB): output, passed on.
            if item.isLineStart { session.report(diagnostic) }
        case .invalid(let diagnostic), .ignored(let diagnostic?):
            if item.isLineStart { session.report(diagnostic) }
            return
        case .ignored(nil):
            return
        }
        session.passthrough(Array(item.bytes) + (item.endsWithNewline ? [0x0A] : []), to: .stdout)
        if session.isClosed(.stdout) { throw OutputClosed() }
    }
}

/// Standard output's reader has gone away: reading stops.
private struct OutputClosed: Error {}

/// Waits between events so that a recorded stream plays with its original timing.
struct Pacer {
    /// How much faster than recorded: 2 plays twice as fast.
    var speed: Double
    /// The longest wait between two events, in recorded seconds; `nil` for no limit.
    var maxGap: Double?
    private var lastRecorded: Double?
    private var scheduled = SystemClock.monotonicSeconds()

    init(speed: Double, maxGap: Double?) {
        self.speed = speed
        self.maxGap = maxGap
    }

    /// Sleeps until the event recorded at `timestamp` is due.
    mutating func wait(for timestamp: Double?) {
        guard let timestamp else { return }
        defer { lastRecorded = timestamp }
        guard let last = lastRecorded else {
            scheduled = SystemClock.monotonicSeconds()
            return
        }
        var gap = max(0, timestamp - last)
        if let maxGap { gap = min(gap, maxGap) }
        scheduled += gap / speed
        SystemClock.sleep(seconds: scheduled - SystemClock.monotonicSeconds())
    }
}
