import ActivityAdapters
import ActivityRendering
import ActivityTerminal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `activity run [display options] [--] CMD [ARGS…]`: runs a command and draws what it reports.
enum RunCommand {
    static let spec = CommandSpec(
        name: "run", summary: "run a command and draw what it and its children report", arguments: "[--] CMD [ARGS…]",
        positionals: .command,
        optionGroups: [
            DisplayOptions.group,
            HistoryOption.group,
            OptionGroup(
                title: "options",
                options: [
                    .value(
                        "grace", "SECONDS",
                        help: "how long reporters still connected after CMD exits may finish (0.5)"),
                    .flag(
                        "no-pty",
                        help: "pipes for CMD's output even on a terminal (default: a pseudo-terminal when the "
                            + "display is live and standard output is the same terminal)"),
                    .value(
                        "adapter", "NAME|none", values: .choices(AdapterRegistry.builtIn.map(\.name) + ["none"]),
                        help: "the adapter for CMD's output (default: chosen by CMD's name); none turns it off; "
                            + "NAME may be activity-adapt-NAME on PATH"),
                ]),
        ], stopsAtFirstPositional: true,
        description: """
            Runs CMD and draws what it and its descendants report. CMD gets ACTIVITY_SINK (a private
            Unix socket) and ACTIVITY_PARENT (the activity of the command itself), so everything it
            reports nests under one activity titled with the command line. Its standard output and
            error are printed above the live display. Signals that would end activity (SIGINT,
            SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, …) are passed on to it. On a terminal its keys are
            copied to it, but for Esc while the live display offers it: when something is
            cancellable and CMD's terminal is in line mode, Esc cancels (see Docs/cli.md).

            When CMD is a tool whose own progress output an adapter reads (git, curl, wget, pv, dd,
            rsync, tar, ffmpeg, pip, ninja, swift build, apt-get, apt, dpkg: see 'activity adapt
            --list'), that output becomes activities under the command's, and the rest of its output
            passes through unchanged. Some tools report only when asked (git --progress, pv -n,
            dd status=progress, rsync --info=progress2, …): run does not change the command line,
            see Docs/adapters.md. apt-get and apt get a status descriptor through APT_CONFIG (a file
            that sets APT::Status-Fd and includes yours), removed when CMD ends; -v says so.

            Exits with CMD's status, 127 when CMD is not found and 126 when it cannot be executed.
            When a signal kills CMD, activity ends by the same signal (without a core file of its
            own), so a shell stops at Ctrl-C as it would without activity.
            """)
    static let parser = OptionParser(spec)

    static func run(_ arguments: [String]) throws(CommandLineError) -> Int32 {
        let parsed = try parser.parse(arguments)
        var options = try DisplayOptions(parsed, parser: parser)
        options.history = try HistoryOption.resolve(parsed, parser: parser)
        // A reader of the display that stalls must not stop the loop that answers reporters.
        options.writesInBackground = true
        options.eventsAreLive = true
        var grace = 0.5
        if let text = parsed.value("grace") {
            guard let value = Double(text), value.isFinite, value >= 0, value <= 3600 else {
                throw parser.usageError("--grace must be a number of seconds from 0 to 3600, not '\(text)'")
            }
            grace = value
        }
        guard !parsed.positionals.isEmpty else { throw parser.usageError("missing CMD") }
        guard !parsed.positionals[0].isEmpty else { throw parser.usageError("CMD is empty") }
        let adapterName: String?
        switch parsed.value("adapter") {
        case "none": adapterName = nil
        case "": throw parser.usageError("--adapter needs a name (see 'activity adapt --list') or none")
        case let name?: adapterName = name
        // A tool's own adapter, else the progress libraries' bars, which any program may draw.
        case nil: adapterName = AdapterRegistry.adapter(forCommand: parsed.positionals)?.name ?? "bars"
        }
        SignalPipe.install()
        defer { SignalPipe.restore() }
        let cancels = CancelRequests()
        let display: SessionDisplay
        do throws(DisplayError) {
            display = try DisplayFactory.make(
                options, onCancel: { ids in cancels.request(ids) }, sendCancel: { id in cancels.request([id]) })
        } catch {
            Console.error(error.message, command: "run")
            return error.exitStatus
        }
        // A pseudo-terminal when the live display and standard output are one terminal: the
        // command then behaves as it would there. Output to a file or a pipe stays a pipe, so
        // the command sees what it would see bare (and standard output stays apart from error).
        let usesTerminal =
            !parsed.flag("no-pty") && display.session.drawsOnTerminal && TerminalDevice.isTerminal(1)
            && TerminalDevice.isTerminal(2) && TerminalDevice.sameDevice(1, 2)
        let supervisor = Supervisor(
            command: parsed.positionals, display: display, grace: grace,
            mayTakeTerminal: options.mode != .overlay, cancels: cancels, adapterName: adapterName,
            usesTerminal: usesTerminal, verbose: options.verbosity == .verbose)
        let outcome = supervisor.run()
        // An output run could not write (a full disk) is said once, and run fails with 74
        // whatever the command's status: its output, or the log, is lost. (The command's SIGPIPE
        // is then run's doing: it closed the pipe it could not pass on.)
        let lostOutput = WriteFailure.report(display.session, command: "run")
        // Killed by a signal, the command ends `run` by the same one, as sudo does: a shell
        // running `run` in a loop or a script stops at Ctrl-C as it would without it (it stops
        // when its child died of SIGINT, not when one exited 130).
        if let signal = outcome.signal, !(lostOutput && signal == SIGPIPE) { SignalPipe.dieBy(signal) }
        return lostOutput ? ExitCode.ioError : outcome.status
    }
}
