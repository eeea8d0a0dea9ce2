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
          adapt     turn a tool's own progress output into events (git, curl, wget, pv, …)
          validate  check event streams against the protocol
          replay    play a recorded stream with its original timing
          demo      show a simulated workload
          help      show help for a command

        options:
          -h, --help     show this help
          --version      print the version

        exit status: 0 success, 1 validation problems, 64 bad command line, 66 input not found,
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

        When CMD is a tool whose own progress output an adapter reads (git, curl, wget, pv, dd,
        rsync, tar, ffmpeg, pip, ninja, swift build, apt-get, apt, dpkg: see 'activity adapt
        --list'), that output becomes activities under the command's, and the rest of its output
        passes through unchanged. Some tools report only when asked (git --progress, pv -n,
        dd status=progress, rsync --info=progress2, apt-get -o APT::Status-Fd=2, …): run does not
        change the command line, see Docs/adapters.md.

        Exits with CMD's status (128 + N when a signal N killed it), 127 when CMD is not found and
        126 when it cannot be executed.

        display options:
        \(displayOptions)
          --grace SECONDS        how long reporters still connected after CMD exits may finish (0.5)
          --adapter NAME|none    the adapter for CMD's output (default: chosen by CMD's name);
                                 none turns it off; NAME may be activity-adapt-NAME on PATH

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

    static let adapt = """
        usage:
          activity adapt [--exit-status N] NAME [FILE]
          activity adapt --list

        Reads a tool's output from FILE (or standard input, or '-') and writes activity events made
        from its progress, with the rest of its output unchanged, to standard output:
            git clone --progress URL 2>&1 | activity adapt git | activity render
        At the end of the input the open activities end: a success when the tool printed its own
        completion, a failure when it printed an error, otherwise as --exit-status says (without
        it, a success only when the known total was reached).

        NAME is a built-in adapter (see --list) or an external one, activity-adapt-NAME on PATH:
        the tool's output on its standard input, events and passthrough on its standard output.
        Events begun at the top level nest under ACTIVITY_PARENT when it is set.

        options:
          --exit-status N   how the tool exited (0 to 255)
          --list            name the adapters and the formats each understands

        Some tools report progress only when asked: git --progress, wget --progress=bar:force,
        pv -n, dd status=progress, rsync --info=progress2, tar --checkpoint=N
        --checkpoint-action=echo, pip --progress-bar raw, ffmpeg -progress pipe:1,
        apt-get -o APT::Status-Fd=N, dpkg --status-fd N. See Docs/adapters.md.

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

    static func text(for command: String) -> String? {
        switch command {
        case "render": render
        case "run": run
        case "emit", "emit begin", "emit progress", "emit end", "emit log": emit
        case "validate": validate
        case "adapt": adapt
        case "replay": replay
        case "demo": demo
        default: nil
        }
    }
}
