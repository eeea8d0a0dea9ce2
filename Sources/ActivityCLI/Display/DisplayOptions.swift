import ActivityRendering
import ActivityReporting

/// The display options shared by `render`, `run`, `replay` and `demo`.
struct DisplayOptions: Sendable {
    /// `--mode`: one of the render session's own displays, or an overlay it draws in their place.
    enum Mode: Hashable, Sendable, RawRepresentable, CaseIterable {
        case session(RenderMode)
        case overlay
        case overlayJSONL

        static let allCases: [Mode] = RenderMode.allCases.map(Mode.session) + [.overlay, .overlayJSONL]

        init?(rawValue: String) {
            switch rawValue {
            case "overlay": self = .overlay
            case "overlay-jsonl": self = .overlayJSONL
            default:
                guard let mode = RenderMode(rawValue: rawValue) else { return nil }
                self = .session(mode)
            }
        }

        var rawValue: String {
            switch self {
            case .session(let mode): mode.rawValue
            case .overlay: "overlay"
            case .overlayJSONL: "overlay-jsonl"
            }
        }
    }

    var mode = Mode.session(.auto)
    var logFile: String?
    var logFormat: LogFormat = .text
    var plugins: [String] = []
    /// `-v` and `-q`: which finished activities leave a permanent line.
    var verbosity: Verbosity = .normal
    /// `--summary`: how much the closing summary says.
    var summary: SummaryDetail = .full
    /// `--osc-progress`: `nil` for auto.
    var taskbarProgress: Bool?
    /// `--otlp-endpoint`: the OpenTelemetry Collector to send spans to (``OTLPSettings``).
    var otlpEndpoint: String?
    /// `--control`: where the process presenting `--mode overlay-jsonl` sends cancel requests.
    var control: ActivitySinkDestination?
    /// `--history` of `render` and `run` (``HistoryOption``): the history file, `nil` for none.
    var history: String?
    /// Whether the display gathers its lines and writes many at once (``RenderOptions``'s
    /// `batchesOutput`): for a command that reads its input on one thread and calls
    /// `RenderSession`'s `flushOutput()` before each read (`render`).
    var batchesOutput = false
    /// Whether the display writes on a thread of its own, so a stalled reader of it never stops
    /// the caller (``RenderOptions``'s `writesInBackground`; `run`).
    var writesInBackground = false
    /// Whether events come as the work happens (``RenderOptions``'s `eventsAreLive`): `run`,
    /// `demo` and `replay` in real time, `render` of anything but a regular file.
    var eventsAreLive = false

    static let group = OptionGroup(
        title: "display options",
        options: [
            .value(
                "mode", "MODE", values: .choices(Mode.allCases.map(\.rawValue)),
                help: "auto (default), tty, plain, log, jsonl, overlay or overlay-jsonl"),
            .value(
                "control", "CHANNEL",
                help: "with --mode overlay-jsonl: read the presenting process's cancel requests on CHANNEL: "
                    + "fd:N (a pipe or socket, N of 3 or above) or unix:PATH (a socket to connect to)"),
            .value("log-file", "PATH", values: .file, help: "also append a log of the activities to PATH"),
            .value(
                "log-format", "FORMAT", values: .choices(LogFormat.allCases.map(\.rawValue)),
                help: "text (default) or jsonl (the format 'activity replay' plays)"),
            .value(
                "plugin", "NAME", repeatable: true, values: .executableSuffix("activity-render-"),
                help: "also feed the events to activity-render-NAME from PATH (repeatable)"),
            .flag("verbose", short: "v", help: "a permanent line for every finished activity, not only top-level ones"),
            .flag(
                "quiet", short: "q",
                help: "permanent lines only for failures (plain mode: and top-level steps), then the summary"),
            .value(
                "summary", "DETAIL", values: .choices(SummaryDetail.allCases.map(\.rawValue)),
                help: "the closing summary: full (default: the tally, the slowest top-level steps with their "
                    + "share of the time, every failure with its path), short (the tally) or off"),
            .value(
                "osc-progress", "WHEN", values: .choices(["auto", "on", "off"]),
                help: "the overall progress in the terminal's tab or taskbar (OSC 9;4): auto (where the "
                    + "terminal is known to show it), on or off"),
            .value(
                "otlp-endpoint", "URL",
                help: "also send each activity, as it ends, as an OpenTelemetry span to the collector at URL "
                    + "(http or https; /v1/traces is appended). Without it, OTEL_EXPORTER_OTLP_ENDPOINT or "
                    + "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT turn export on; OTEL_SERVICE_NAME names the service"),
        ], isShared: true)

    /// Refuses a log file that is the input on `fd`: the command would read each line it wrote,
    /// without end. Returns the exit status after a message, or `nil` when they differ.
    func refuseLogFile(readFrom fd: Int32, command: String) -> Int32? {
        guard let logFile, CommandInput.isFile(fd, at: logFile) else { return nil }
        Console.error("--log-file \(logFile) is the input: it would read what it writes, without end", command: command)
        return ExitCode.usage
    }

    /// Reads the display options from a parsed command line.
    init(_ parsed: ParsedArguments, parser: OptionParser) throws(CommandLineError) {
        mode = try parser.choice(parsed, "mode", among: Mode.allCases) ?? .session(.auto)
        logFile = parsed.value("log-file")
        if logFile == "" { throw parser.usageError("--log-file needs a path") }
        logFormat = try parser.choice(parsed, "log-format", among: LogFormat.allCases) ?? .text
        if parsed.value("log-format") != nil && logFile == nil {
            throw parser.usageError("--log-format needs --log-file")
        }
        plugins = parsed.all("plugin")
        for plugin in plugins where plugin.isEmpty || plugin.contains("/") {
            throw parser.usageError("--plugin takes a name (activity-render-NAME on PATH), not '\(plugin)'")
        }
        if parsed.flag("verbose") && parsed.flag("quiet") {
            throw parser.usageError("--verbose and --quiet exclude each other")
        }
        verbosity = parsed.flag("verbose") ? .verbose : parsed.flag("quiet") ? .quiet : .normal
        summary = try parser.choice(parsed, "summary", among: SummaryDetail.allCases) ?? .full
        switch parsed.value("osc-progress") {
        case nil, "auto": taskbarProgress = nil
        case "on": taskbarProgress = true
        case "off": taskbarProgress = false
        case let other?: throw parser.usageError("--osc-progress must be one of auto|on|off, not '\(other)'")
        }
        if let text = parsed.value("control") {
            guard mode == .overlayJSONL else { throw parser.usageError("--control needs --mode overlay-jsonl") }
            switch try? ActivitySinkDestination(parsing: text) {
            case .fileDescriptor(let fd)? where fd <= 2:
                throw parser.usageError(
                    "--control fd:\(fd) is a standard stream; pass the channel on a descriptor of its own (3 or above)")
            case let destination? where destination.isFileDescriptor || destination.isUnixSocket:
                control = destination
            default:
                throw parser.usageError("--control takes fd:N or unix:PATH, not '\(text)'")
            }
        }
        otlpEndpoint = parsed.value("otlp-endpoint")
        if let url = otlpEndpoint {
            do throws(HTTPEndpoint.Invalid) {
                _ = try HTTPEndpoint(url)
            } catch {
                throw parser.usageError("--otlp-endpoint \(error.message)")
            }
        }
    }

    init() {}
}

/// Why a display could not be set up: a log file that cannot be created, a plugin not found.
struct DisplayError: Error, Sendable {
    var message: String
    var exitStatus: Int32
}

extension ActivitySinkDestination {
    fileprivate var isFileDescriptor: Bool {
        if case .fileDescriptor = self { true } else { false }
    }

    fileprivate var isUnixSocket: Bool {
        if case .unixSocket = self { true } else { false }
    }
}
