/// The `activity` command: picks the subcommand and turns errors into messages and exit statuses.
enum ActivityCommand {
    static func main(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            print(HelpText.overview, terminator: "")
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        do throws(CommandLineError) {
            switch first {
            case "--help", "-h": return show(HelpText.overview)
            case "--version", "-V": return show("activity \(Commands.version)\n")
            case "help": return try help(rest)
            case "render": return try RenderCommand.run(rest)
            case "run": return try RunCommand.run(rest)
            case "replay": return try ReplayCommand.run(rest)
            case "demo": return try DemoCommand.run(rest)
            case "emit": return try EmitCommand.run(rest)
            case "adapt": return try AdaptCommand.run(rest)
            case "validate": return try ValidateCommand.run(rest)
            case "completion": return try CompletionCommand.run(rest)
            case "manpage": return try ManPageCommand.run(rest)
            case SessionLeader.command: return SessionLeader.run(rest)
            case "report": return try ReportCommand.run(rest)
            case "export": return try ExportCommand.run(rest)
            default:
                let what = first.hasPrefix("-") ? "unknown option '\(first)'" : "unknown command '\(first)'"
                Console.error("\(what) (usage: activity COMMAND [OPTIONS]; see 'activity --help')")
                return ExitCode.usage
            }
        } catch {
            switch error {
            case .helpRequested(let command): return show(HelpText.text(for: command) ?? HelpText.overview)
            case .usage: try? FileOutput.standardError.write(Console.shown(error.message) + "\n")
            }
            return ExitCode.usage
        }
    }

    static func help(_ arguments: [String]) throws(CommandLineError) -> Int32 {
        guard let command = arguments.first, arguments != ["help"] else { return show(HelpText.overview) }
        guard arguments.count == 1, let text = HelpText.text(for: command) else {
            Console.error("no help for '\(arguments.joined(separator: " "))' (usage: activity help COMMAND)")
            return ExitCode.usage
        }
        return show(text)
    }

    /// Prints help or version text; a closed standard output is not an error.
    static func show(_ text: String) -> Int32 {
        try? FileOutput.standardOutput.write(text)
        return ExitCode.success
    }
}
