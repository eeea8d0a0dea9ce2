import ActivityPOSIX
import ActivityRendering
import ActivityWire

/// `activity demo [--speed X | --quick] [display options]`: a simulated build, drawn live.
enum DemoCommand {
    static let spec = CommandSpec(
        name: "demo", summary: "show a simulated workload", arguments: "",
        optionGroups: [
            OptionGroup(
                title: "options",
                options: [
                    .value("speed", "X", help: "run X times faster (default 1)"),
                    .flag("quick", help: "as fast as possible (for tests)"),
                ]),
            DisplayOptions.group,
        ],
        description: """
            Simulates about ten seconds of work (a parallel build with nested steps, downloads, a
            failure, a cancellation, log lines) and draws it live.
            """)
    static let parser = OptionParser(spec)

    static func run(_ arguments: [String]) throws(CommandLineError) -> Int32 {
        let parsed = try parser.parse(arguments)
        var options = try DisplayOptions(parsed, parser: parser)
        options.eventsAreLive = !parsed.flag("quick")
        try parser.expectPositionals(parsed, 0...0, names: "")
        let speed = try parser.positiveNumber(parsed, "speed")
        if speed != nil && parsed.flag("quick") { throw parser.usageError("--speed and --quick exclude each other") }
        let display: SessionDisplay
        switch options.makeDisplay(command: "demo") {
        case .success(let made): display = made
        case .failure(let error): return error.exitStatus
        }
        let watcher = SignalWatcher.start(finishing: display)
        let start = SystemClock.monotonicSeconds()
        let startTime = SystemClock.unixTimestamp()
        for entry in DemoScript.timeline() {
            var event = entry.event
            if parsed.flag("quick") {
                event.timestamp = startTime + entry.time
            } else {
                SystemClock.sleep(seconds: start + entry.time / (speed ?? 1) - SystemClock.monotonicSeconds())
                event.timestamp = SystemClock.unixTimestamp()
            }
            display.session.handle(event)
        }
        watcher.finish()
        return ExitCode.success
    }
}
