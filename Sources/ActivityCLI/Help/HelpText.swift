/// The help texts of `activity` and its subcommands, generated from ``Commands``.
enum HelpText {
    static var overview: String {
        let width = Commands.all.map(\.name.count).max() ?? 0
        var lines = [
            "activity \(Commands.version): \(Commands.tagline)", "", "usage: activity COMMAND [OPTIONS] [ARGUMENTS]",
            "",
            "commands:",
        ]
        for spec in Commands.all {
            lines.append("  " + pad(spec.name, to: width + 2) + spec.summary)
        }
        lines.append("  " + pad("help", to: width + 2) + Commands.helpSummary)
        lines += [
            "", "options:", "  -h, --help     " + Commands.helpOption, "  --version      " + Commands.versionOption, "",
            "exit status: " + Commands.exitStatus.split(separator: "\n").joined(separator: "\n"), "",
            "See 'activity help COMMAND' for the options of a command.", "",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The help of one command (a verb's name, `emit begin`, shows its command's help).
    static func text(for name: String) -> String? {
        let top = String(name.split(separator: " ").first ?? "")
        guard let spec = Commands.spec(named: top) else { return nil }
        var lines: [String] = []
        if spec.verbs.isEmpty {
            lines.append("usage: " + spec.shortUsage)
        } else {
            lines.append("usage:")
            for verb in spec.verbs { lines.append("  " + verb.usage) }
        }
        if !spec.description.isEmpty { lines += ["", spec.description] }
        if let example = spec.example {
            lines += ["", "example:"] + example.split(separator: "\n").map { "  " + $0 }
        }
        let groups =
            spec.optionGroups
            + spec.verbs.flatMap { verb in
                verb.optionGroups.map { OptionGroup(title: "\(verb.name) options", options: $0.options) }
            }
        let width = min(26, (groups.flatMap(\.options).map(\.label.count).max() ?? 0) + 4)
        for group in groups where !group.options.isEmpty {
            lines += ["", group.title + ":"]
            for option in group.options {
                let label = "  " + option.label
                let help = wrap(option.help, width: 100 - width)
                lines.append(label.count + 1 >= width ? label + "  " + help[0] : pad(label, to: width) + help[0])
                lines += help.dropFirst().map { String(repeating: " ", count: width) + $0 }
            }
        }
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// `text` in lines of at most `width` characters, broken between words.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }

    static func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
