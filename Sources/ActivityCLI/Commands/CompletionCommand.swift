/// `activity completion bash|zsh|fish`: prints a completion script for the shell.
enum CompletionCommand {
    static let shells = ["bash", "zsh", "fish"]

    static let spec = CommandSpec(
        name: "completion", summary: "print a shell completion script (bash, zsh or fish)", arguments: "SHELL",
        positionals: .choices(shells),
        description: """
            Prints the completion script for SHELL, generated from the same table as the help. To try
            one in the current shell:
                source <(activity completion bash)
                activity completion fish | source
            The install script puts them where each shell looks (see the README).
            """)
    static let parser = OptionParser(spec)

    static func run(_ arguments: [String]) throws(CommandLineError) -> Int32 {
        let parsed = try parser.parse(arguments)
        try parser.expectPositionals(parsed, 1...1, names: "SHELL")
        switch parsed.positionals[0] {
        case "bash": return ActivityCommand.show(BashCompletion.script())
        case "zsh": return ActivityCommand.show(ZshCompletion.script())
        case "fish": return ActivityCommand.show(FishCompletion.script())
        case let other: throw parser.usageError("SHELL must be one of bash|zsh|fish, not '\(other)'")
        }
    }
}
