import ActivityAdapters
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `activity run [display options] [--] CMD [ARGS…]`: runs a command and draws what it reports.
enum RunCommand {
    static let parser = ArgumentParser(
        command: "run",
        usage: "activity run \(DisplayOptions.usage) [--grace SECONDS] [--adapter NAME|none] [--] CMD [ARGS…]",
        options: DisplayOptions.specs + [.value("grace"), .value("adapter")], stopsAtFirstPositional: true)

    static func run(_ arguments: [String]) throws(CommandLineError) -> Int32 {
        let parsed = try parser.parse(arguments)
        let options = try DisplayOptions(parsed, parser: parser)
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
        case nil: adapterName = AdapterRegistry.adapter(forCommand: parsed.positionals)?.name
        }
        SignalPipe.install()
        defer { SignalPipe.restore() }
        let cancelTarget = CancelTarget()
        let display: any Display
        do throws(DisplayError) {
            display = try DisplayFactory.make(options) { cancelTarget.interrupt() }
        } catch {
            Console.error(error.message, command: "run")
            return error.exitStatus
        }
        let supervisor = Supervisor(
            command: parsed.positionals, display: display, grace: grace,
            mayTakeTerminal: options.mode != .overlay, cancelTarget: cancelTarget, adapterName: adapterName)
        return supervisor.run()
    }
}

/// Where Esc in the terminal overlay sends SIGINT: the command's process group, once it runs.
final class CancelTarget: Sendable {
    private let group = Atomic<Int32>(0)

    func set(_ pid: Int32) { group.store(pid, ordering: .sequentiallyConsistent) }

    func interrupt() {
        let pid = group.load(ordering: .sequentiallyConsistent)
        if pid > 0 { kill(-pid, SIGINT) }
    }
}
