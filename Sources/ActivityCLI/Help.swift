/// The help texts of `activity` and its subcommands.
enum Help {
    static let version = "0.1.0"

    static let overview = """
        activity \(version): show what long-running work is doing (protocol v1)

        usage: activity COMMAND [OPTIONS] [ARGUMENTS]

        commands:
          render    draw the events a tool writes (tool | activity render)
          run       run a command and draw what it and its children report
          emit      report one event from a shell script
          validate  check event streams against the protocol
          replay    play a recorded stream with its original timing
          report    draw a recording as an HTML page: timeline, critical path, failures
          export    convert a recording to a Chrome trace or OpenTelemetry (OTLP JSON)
          demo      show a simulated workload
          help      show help for a command

        options:
          -h, --help     show this help
          --version      print the version

        exit status: 0 success, 1 validation problems, 64 bad command line, 65 not a recording,
        66 input not found,
        69 plugin not found, 71 system error, 73 log file not writable, 74 read error,
        126 command not executable, 127 command not found, 128+N killed by signal N;
        `run` exits with the command's own status.

        See 'activity help COMMAND' for the options of a command.

        """

    static let displayOptions = """
          --mode MODE            auto (default), tty, plain, log, jsonl, overlay or overlay-jsonl
          --log-file PATH        also append a log of the activities to PATH
          --log-format FORMAT    text (default) or jsonl (the format 'activity replay' plays)
          --plugin NAME          also feed the events to activity-render-NAME from PATH (repeatable)
          --otlp-endpoint URL    also send each activity, as it ends, as an OpenTelemetry span to the
                                 collector at URL (http only; /v1/traces is appended). Without it,
                                 OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
                                 turn export on; OTEL_SERVICE_NAME names the service
        """

    static let render = """
        usage: activity render [display options] [FILE]

        Reads activity events from FILE (or standard input, or '-') and draws them on standard
        error. Lines that are not events pass through to standard output unchanged, so
            tool | activity render > out.txt
        keeps the tool's own output in out.txt and shows progress on the terminal.

        display options:
        \(displayOptions)

        """

    static let run = """
        usage: activity run [display options] [--] CMD [ARGS…]

        Runs CMD and draws what it and its descendants report. CMD gets ACTIVITY_SINK (a private
        Unix socket) and ACTIVITY_PARENT (the activity of the command itself), so everything it
        reports nests under one activity titled with the command line. Its standard output and
        error are printed above the live display. SIGINT, SIGTERM and SIGHUP are passed on to it.

        Exits with CMD's status (128 + N when a signal N killed it), 127 when CMD is not found and
        126 when it cannot be executed.

        display options:
        \(displayOptions)
          --grace SECONDS        how long reporters still connected after CMD exits may finish (0.5)

        """

    static let emit = """
        usage:
          activity emit begin TITLE [--id ID] [--parent ID] [--total N] [--unit U] [--message M]
          activity emit progress ID [--completed N] [--total N|none] [--message M] [--title T]
          activity emit end ID [--status success|failure|cancelled|skipped] [--message M] [--error E]
          activity emit log [--id ID] [--level debug|info|warning|error] MESSAGE

        Reports one event to ACTIVITY_SINK (set by 'activity run'). 'begin' prints the new
        activity's id; its parent is --parent, else ACTIVITY_PARENT. Without ACTIVITY_SINK nothing
        is sent, but ids are still printed, so scripts run unchanged outside a renderer.

        example:
          id=$(activity emit begin "Compiling" --total 3)
          activity emit progress "$id" --completed 1
          activity emit end "$id"

        """

    static let validate = """
        usage: activity validate [--quiet | --json] [--strict] [FILE…]

        Checks event streams (standard input when no FILE is given) against the schema and the
        protocol's rules. Prints FILE:LINE: code: message for each problem (errors and warnings)
        and exits 1 when there is an error; 66 when a file cannot be opened, 74 when it cannot be
        read.

        options:
          -q, --quiet   print nothing, only set the exit status
          --json        one JSON object per problem: file, line, code, severity, message
          --strict      warnings (never-ended, unknown-parent, unsupported-version) fail too

        """

    static let replay = """
        usage: activity replay [--speed X] [display options] FILE

        Plays a recorded stream (for example from --log-file PATH --log-format jsonl) with its
        original timing, X times faster (--speed 2) or slower (--speed 0.5).

        options:
          --speed X       the speed factor (default 1)
          --max-gap S     wait at most S seconds between two events (default: no limit)
        display options:
        \(displayOptions)

        """

    static let demo = """
        usage: activity demo [--speed X | --quick] [display options]

        Simulates about ten seconds of work (a parallel build with nested steps, downloads, a
        failure, a cancellation, log lines) and draws it live.

        options:
          --speed X     run X times faster (default 1)
          --quick       as fast as possible (for tests)
        display options:
        \(displayOptions)

        """

    static let report = """
        usage: activity report [-o FILE] [--format html|svg] [--title TEXT] RECORDING

        Draws a recording (made with --log-file PATH --log-format jsonl) as one self-contained HTML
        page: a timeline of every activity, nested as in the tree and coloured by outcome, with the
        critical path outlined (details on hover and click, zoom on time); the critical path, every
        failure with its log lines and the slowest activities as tables; a summary. The page loads
        nothing from the network. Lines that are not events are named on standard error and skipped.

        options:
          -o, --output FILE   where to write ('-' for standard output); default: RECORDING's name
                              with .html (or .svg) in the current directory
          --format FORMAT     html (default), or svg: the timeline alone, for a README or a chat
          --title TEXT        the heading (default: the first top-level activity's title)

        exit status: 0 written, 65 RECORDING holds no events, 66 RECORDING not found,
        73 FILE cannot be created, 74 read error.

        """

    static let export = """
        usage: activity export --format chrome-trace|otlp-json [-o FILE] [--service-name NAME] RECORDING

        Converts a recording (made with --log-file PATH --log-format jsonl) for other tools:
          chrome-trace  the Trace Event Format: open it in https://ui.perfetto.dev or
                        chrome://tracing. Activities that overlap their siblings are async slices.
          otlp-json     OpenTelemetry traces in the OTLP JSON encoding (ExportTraceServiceRequest):
                        an activity is a span, logs are span events, the outcome is the status.
                        The same recording always gives the same trace and span ids.

        options:
          --format FORMAT       chrome-trace or otlp-json (required)
          -o, --output FILE     where to write (default: standard output)
          --service-name NAME   service.name for otlp-json (default: OTEL_SERVICE_NAME, else activity)

        exit status: 0 written, 65 RECORDING holds no events, 66 RECORDING not found,
        73 FILE cannot be created, 74 read error.

        """

    static func text(for command: String) -> String? {
        switch command {
        case "render": render
        case "run": run
        case "emit", "emit begin", "emit progress", "emit end", "emit log": emit
        case "validate": validate
        case "replay": replay
        case "demo": demo
        case "report": report
        case "export": export
        default: nil
        }
    }
}
