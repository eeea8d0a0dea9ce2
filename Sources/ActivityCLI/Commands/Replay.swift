#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `activity replay [--speed X] [--max-gap S] [display options] FILE`: plays a recorded stream
/// with its original timing.
enum ReplayCommand {
    static let parser = ArgumentParser(
        command: "replay", usage: "activity replay [--speed X] [--max-gap S] \(DisplayOptions.usage) FILE",
        options: DisplayOptions.specs + [.value("speed"), .value("max-gap")])

    static func run(_ arguments: [String]) throws(CommandLineError) -> Int32 {
        let parsed = try parser.parse(arguments)
        let options = try DisplayOptions(parsed, parser: parser)
        try parser.expectPositionals(parsed, 1...1, names: "FILE")
        let speed = try parser.positiveNumber(parsed, "speed") ?? 1
        let maxGap = try parser.positiveNumber(parsed, "max-gap")
        let file = parsed.positionals[0]
        let fd = file == "-" ? 0 : open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            Console.error("\(file): \(POSIX.describe(errno))", command: "replay")
            return ExitCode.noInput
        }
        defer { if fd != 0 { close(fd) } }
        let display: any Display
        switch options.makeDisplay(command: "replay") {
        case .success(let made): display = made
        case .failure(let error): return error.exitStatus
        }
        let watcher = SignalWatcher.start(finishing: display)
        let feeder = StreamFeeder(display: display, pacer: Pacer(speed: speed, maxGap: maxGap))
        let status = feeder.feed(fd: fd, name: file, command: "replay")
        watcher.finish()
        return status
    }
}
