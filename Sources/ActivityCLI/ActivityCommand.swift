/// The `activity` command: picks the subcommand and turns errors into messages and exit statuses.
enum ActivityCommand {
    static func main(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            print(Help.overview, terminator: "")
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        do throws(CommandLineError) {
            switch first {
            case "--help", "-h": return show(Help.overview)
            case "--version", "-V": return show("activity \(Help.version)\n")
            case "help": return try help(rest)
            case "render": return try RenderCommand.run(rest)
            case "run": return try RunCommand.run(rest)
            case "replay": return try ReplayCommand.run(rest)
            case "demo": return try DemoCommand.run(rest)
            case "emit": return try EmitCommand.run(rest)
            case "adapt": return try AdaptCommand.run(rest)
            case "validate": return try ValidateCommand.run(rest)
            default:
                let what = first.hasPrefix("-") ? "unknown option '\(first)'" : "unknown command '\(first)'"
                Console.error("\(what) (usage: activity COMMAND [OPTIONS]; see 'activity --help')")
                return ExitCode.usage
            }
        } catch {
            switch error {
            case .helpRequested(let command): return show(Help.text(for: command) ?? Help.overview)
            case .usage: try? FileOutput.standardError.write(error.message + "\n")
            }
            return ExitCode.usage
        }
    }

    static func help(_ arguments: [String]) throws(CommandLineError) -> Int32 {
        guard let command = arguments.first, arguments != ["help"] else { return show(Help.overview) }
        guard arguments.count == 1, let text = Help.text(for: command) else {
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
