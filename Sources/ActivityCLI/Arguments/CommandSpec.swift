/// Everything about one subcommand's command line, declared once: the parser reads its options,
/// and the help text, the man page and the shell completions are generated from it.
struct CommandSpec: Sendable {
    /// How the command is called: `render`, `emit begin`.
    var name: String
    /// One line for the overview.
    var summary: String
    /// What follows the options in the synopsis: `[FILE]`, `[--] CMD [ARGS…]`.
    var arguments: String
    /// What positional arguments are, for completion.
    var positionals: ValueKind = .none
    var optionGroups: [OptionGroup] = []
    /// For `activity run`: the first positional argument and everything after it is the command.
    var stopsAtFirstPositional = false
    /// Paragraphs of description; lines are kept as written.
    var description: String
    /// Lines of an example, shown under `example:`.
    var example: String?
    /// Verbs with command lines of their own (`emit begin`, `emit end`).
    var verbs: [CommandSpec] = []

    var options: [OptionSpec] { optionGroups.flatMap(\.options) }

    /// The synopsis with every option spelled out, as usage errors show it.
    var usage: String {
        (["activity", name] + options.map(\.synopsis) + (arguments.isEmpty ? [] : [arguments])).joined(separator: " ")
    }

    /// The synopsis as the help's first line shows it: shared groups by their title.
    var shortUsage: String {
        var parts = ["activity", name]
        for group in optionGroups {
            if group.isShared {
                parts.append("[\(group.title)]")
            } else {
                parts += group.options.map(\.synopsis)
            }
        }
        if !arguments.isEmpty { parts.append(arguments) }
        return parts.joined(separator: " ")
    }

    /// The spec of `name`, this command or one of its verbs.
    func find(_ name: String) -> CommandSpec? {
        if name == self.name { return self }
        return verbs.first { $0.name == name }
    }
}
