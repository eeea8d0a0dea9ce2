/// Reads a command line as a ``CommandSpec`` declares it: long options with values (`--x v`,
/// `--x=v`), flags, short aliases, `--` to end options, and positional arguments.
///
/// `-` alone is a positional argument (standard input). With
/// ``CommandSpec/stopsAtFirstPositional`` (for `activity run`), the first positional argument and
/// everything after it is the command to run, so `activity run make -j4` passes `-j4` to make.
struct OptionParser: Sendable {
    let spec: CommandSpec

    init(_ spec: CommandSpec) {
        self.spec = spec
    }

    /// How the command is called in messages: `emit begin`.
    var command: String { spec.name }
    var options: [OptionSpec] { spec.options }

    func parse(_ arguments: [String]) throws(CommandLineError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                parsed.positionals += arguments[index...]
                break
            }
            if argument == "--help" || argument == "-h" { throw .helpRequested(command) }
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                guard let spec = options.first(where: { $0.name == name }) else {
                    throw usageError("unknown option '--\(name)'")
                }
                try take(spec, inlineValue: inlineValue, spelled: "--\(name)", arguments, &index, into: &parsed)
            } else if argument.hasPrefix("-") && argument.count > 1 {
                let letters = Array(argument.dropFirst())
                for (position, letter) in letters.enumerated() {
                    guard let spec = options.first(where: { $0.short == letter }) else {
                        throw usageError("unknown option '-\(letter)'")
                    }
                    if spec.takesValue {
                        let rest = String(letters[(position + 1)...])
                        try take(
                            spec, inlineValue: rest.isEmpty ? nil : rest, spelled: "-\(letter)", arguments,
                            &index, into: &parsed)
                        break
                    }
                    try take(spec, inlineValue: nil, spelled: "-\(letter)", arguments, &index, into: &parsed)
                }
            } else {
                parsed.positionals.append(argument)
                if spec.stopsAtFirstPositional {
                    parsed.positionals += arguments[index...]
                    break
                }
            }
        }
        for option in options where option.required && parsed.value(option.name) == nil {
            throw usageError("missing --\(option.name)")
        }
        return parsed
    }

    private func take(
        _ spec: OptionSpec, inlineValue: String?, spelled: String, _ arguments: [String], _ index: inout Int,
        into parsed: inout ParsedArguments
    ) throws(CommandLineError) {
        if !spec.repeatable && (parsed.values[spec.name] != nil || parsed.flags.contains(spec.name)) {
            throw usageError("\(spelled) given more than once")
        }
        guard spec.takesValue else {
            if inlineValue != nil { throw usageError("\(spelled) takes no value") }
            parsed.flags.insert(spec.name)
            return
        }
        let value: String
        if let inlineValue {
            value = inlineValue
        } else {
            guard index < arguments.count else { throw usageError("\(spelled) needs a value") }
            value = arguments[index]
            index += 1
        }
        parsed.values[spec.name, default: []].append(value)
    }

    /// An error about the command line, with this command's usage.
    func usageError(_ message: String) -> CommandLineError {
        .usage(command: command, message: message, usage: spec.usage)
    }
}

/// What ``OptionParser`` found.
struct ParsedArguments: Sendable {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// Why a command line was not accepted.
enum CommandLineError: Error, Equatable {
    /// `--help` or `-h`: print the command's help, exit 0.
    case helpRequested(String)
    /// A malformed command line: print one line naming the problem and the usage, exit 64.
    case usage(command: String, message: String, usage: String)

    /// The one-line message for standard error.
    var message: String {
        switch self {
        case .helpRequested(let command): "help requested for \(command)"
        case .usage(let command, let message, let usage):
            "activity \(command): \(message) (usage: \(usage))"
        }
    }
}
