import ActivityWire

/// `activity demo [--speed X | --quick] [display options]`: a simulated build, drawn live.
enum DemoCommand {
    static let parser = ArgumentParser(
        command: "demo", usage: "activity demo [--speed X | --quick] \(DisplayOptions.usage)",
        options: DisplayOptions.specs + [.value("speed"), .flag("quick")])

    static func run(_ arguments: [String]) throws(CommandLineError) -> Int32 {
        let parsed = try parser.parse(arguments)
        let options = try DisplayOptions(parsed, parser: parser)
        try parser.expectPositionals(parsed, 0...0, names: "")
        let speed = try parser.positiveNumber(parsed, "speed")
        if speed != nil && parsed.flag("quick") { throw parser.usageError("--speed and --quick exclude each other") }
        let display: any Display
        switch options.makeDisplay(command: "demo") {
        case .success(let made): display = made
        case .failure(let error): return error.exitStatus
        }
        let watcher = SignalWatcher.start(finishing: display)
        let start = POSIX.monotonicSeconds()
        let startTime = POSIX.unixSeconds()
        for entry in DemoScript.timeline() {
            var event = entry.event
            if parsed.flag("quick") {
                event.timestamp = startTime + entry.time
            } else {
                POSIX.sleep(seconds: start + entry.time / (speed ?? 1) - POSIX.monotonicSeconds())
                event.timestamp = POSIX.unixSeconds()
            }
            display.handle(event)
        }
        watcher.finish()
        return ExitCode.success
    }
}
