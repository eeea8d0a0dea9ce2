/// One option a command accepts, with everything the help, the man page and the shell
/// completions say about it.
struct OptionSpec: Sendable {
    /// The long name without dashes: `total` for `--total`.
    var name: String
    /// A one-letter alias: `q` for `-q`.
    var short: Character?
    /// The value's placeholder in help (`N`, `PATH`); `nil` for a flag.
    var valueName: String?
    /// Whether it may be given more than once (`--plugin a --plugin b`).
    var repeatable: Bool
    /// One line of help.
    var help: String
    /// What the value is, for completion and the synopsis.
    var values: ValueKind
    /// Whether the command needs it: the synopsis shows it without brackets, and the parser
    /// refuses a command line without it.
    var required = false

    /// Whether the option takes a value (`--total 12`, `--total=12`).
    var takesValue: Bool { valueName != nil }

    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, repeatable: false, help: help, values: .none)
    }

    static func value(
        _ name: String, _ valueName: String, short: Character? = nil, repeatable: Bool = false,
        values: ValueKind = .text, required: Bool = false, help: String
    ) -> OptionSpec {
        OptionSpec(
            name: name, short: short, valueName: valueName, repeatable: repeatable, help: help, values: values,
            required: required)
    }

    /// The option as the synopsis writes it: `--mode auto|tty`, `--total N`, `-q|--quiet`.
    var synopsis: String {
        var text = (short.map { "-\($0)|" } ?? "") + "--" + name
        // A short list of choices is spelled out; a long one goes by the value's name.
        if case .choices(let names) = values, names.joined(separator: "|").count <= 48 {
            text += " " + names.joined(separator: "|")
        } else if let valueName {
            text += " " + valueName
        }
        return (required ? text : "[" + text + "]") + (repeatable ? "…" : "")
    }

    /// The option as the help's left column writes it: `-q, --quiet`, `--mode MODE`.
    var label: String {
        (short.map { "-\($0), " } ?? "") + "--" + name + (valueName.map { " " + $0 } ?? "")
    }
}

/// What an option's value or a positional argument is: what a shell offers to complete it.
enum ValueKind: Sendable, Equatable {
    /// A flag: no value.
    case none
    /// Free text: nothing to offer.
    case text
    /// A file name.
    case file
    /// A command on `PATH`, followed by its own arguments.
    case command
    /// One of these names.
    case choices([String])
    /// A name of an `activity-PREFIX-NAME` executable on `PATH`.
    case executableSuffix(String)
}

/// A titled list of options in a command's help: `options:`, `display options:`.
struct OptionGroup: Sendable {
    var title: String
    var options: [OptionSpec]
    /// Whether the synopsis names the group (`[display options]`) rather than each option.
    var isShared: Bool = false
}
