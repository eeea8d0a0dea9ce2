/// The table every generated text reads: the subcommands in the order the overview lists them,
/// and what the whole command says about itself.
enum Commands {
    static let version = "0.2.0"

    static let all: [CommandSpec] = [
        RenderCommand.spec, RunCommand.spec, EmitCommand.spec, ValidateCommand.spec, ReplayCommand.spec,
        DemoCommand.spec, AdaptCommand.spec, ReportCommand.spec, ExportCommand.spec, CompletionCommand.spec,
        ManPageCommand.spec,
    ]

    /// The spec of `name` (`render`, `emit`, `emit begin`).
    static func spec(named name: String) -> CommandSpec? {
        for spec in all {
            if let found = spec.find(name) { return found }
        }
        return nil
    }

    static let tagline = "show what long-running work is doing (protocol v1)"

    /// What `activity help` does, listed after the subcommands.
    static let helpSummary = "show help for a command"
    /// What `-h`/`--help` and `--version` do, before any command.
    static let helpOption = "show this help"
    static let versionOption = "print the version"

    static let exitStatus = """
        0 success, 1 validation problems, 64 bad command line, 65 not a recording, 66 input not found,
        69 plugin not found, 71 system error, 73 log file not writable, 74 read error,
        126 command not executable, 127 command not found, 128+N killed by signal N;
        `run` exits with the command's own status.
        """

    /// The variables `activity` and the libraries read, for the man page.
    static let environment: [(name: String, meaning: String)] = [
        ("ACTIVITY_SINK", "where reporters write: unix:PATH, fd:N, file:PATH, stdout, stderr or none"),
        ("ACTIVITY_PARENT", "the id of the activity that started this process; new activities nest under it"),
        ("ACTIVITY_TIMEOUT_MS", "how long a reporter waits for a stalled reader (0 to 60000, default 1000)"),
        ("ACTIVITY_CONTROL", "where a reporter reads cancel requests when its sink is not a socket: fd:N or unix:PATH"),
        (
            "ACTIVITY_HISTORY",
            "the history file of render, run and replay (a path, on for the default one, or off); see --history"
        ),
        ("XDG_STATE_HOME", "where the history file is by default: $XDG_STATE_HOME/activity/history"),
        ("NO_COLOR", "when set and not empty: no colours"),
        ("CLICOLOR", "0: no colours"),
        ("CLICOLOR_FORCE", "set and not 0: colours even when the display is not a terminal"),
        ("ACTIVITY_COLORS", "the display's colours, role=SGR:role=SGR... (bar=34:failure=1;31; see Docs/rendering.md)"),
        ("TERM", "dumb: plain lines, no escape sequences"),
        ("CI", "when set: plain lines"),
        ("TMPDIR", "where activity run makes its private socket directory (default /tmp)"),
        ("OTEL_EXPORTER_OTLP_ENDPOINT", "an OpenTelemetry Collector to send spans to (see --otlp-endpoint)"),
        ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "the same for traces only, used as it is (no /v1/traces appended)"),
        ("OTEL_SERVICE_NAME", "the service.name of exported spans"),
    ]
}
