import ActivityPOSIX
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `activity validate [FILE…]`: checks streams against the schema and the protocol's rules.
///
/// Prints `FILE:LINE: code: message` per problem (warnings included), or one JSON object per
/// problem with `--json`, or nothing with `--quiet`. Exits 1 when there is any error (or any
/// warning, with `--strict`), 66 when a file cannot be opened and 74 when one cannot be read (the
/// other files are still checked).
enum ValidateCommand {
    static let spec = CommandSpec(
        name: "validate", summary: "check event streams against the protocol", arguments: "[FILE…]",
        positionals: .file,
        optionGroups: [
            OptionGroup(
                title: "options",
                options: [
                    .flag("quiet", short: "q", help: "print nothing, only set the exit status"),
                    .flag("json", help: "one JSON object per problem: file, line, code, severity, message"),
                    .flag("strict", help: "warnings (never-ended, unknown-parent, unsupported-version) fail too"),
                ])
        ],
        description: """
            Checks event streams (standard input when no FILE is given) against the schema and the
            protocol's rules. Prints FILE:LINE: code: message for each problem (errors and warnings)
            and exits 1 when there is an error; 66 when a file cannot be opened, 74 when it cannot be
            read.
            """)
    static let parser = OptionParser(spec)

    static func run(_ arguments: [String]) throws(CommandLineError) -> Int32 {
        let parsed = try parser.parse(arguments)
        let quiet = parsed.flag("quiet")
        let json = parsed.flag("json")
        let strict = parsed.flag("strict")
        if quiet && json { throw parser.usageError("--quiet and --json exclude each other") }
        let files = parsed.positionals.isEmpty ? ["-"] : parsed.positionals
        var problems = 0
        var status = ExitCode.success
        for file in files {
            let name = file == "-" ? "<stdin>" : file
            guard let fd = CommandInput.descriptor(for: file) else {
                Console.error("\(CommandInput.name(file)): \(SystemError.reason(errno))", command: "validate")
                status = ExitCode.noInput
                continue
            }
            defer { CommandInput.release(fd) }
            do {
                try check(fd: fd) { diagnostic in
                    if strict || diagnostic.severity == .error { problems += 1 }
                    guard !quiet else { return }
                    try FileOutput.standardOutput.write(json ? jsonLine(name, diagnostic) : textLine(name, diagnostic))
                }
            } catch let error as SystemError {
                if error.readerIsGone { return problems > 0 ? ExitCode.problems : status }
                Console.error("standard output: \(error.reason)", command: "validate")
                return ExitCode.ioError
            } catch let error as ReadError {
                Console.error("\(CommandInput.name(file)): \(error)", command: "validate")
                if status == ExitCode.success { status = ExitCode.ioError }
            } catch {
                Console.error("\(CommandInput.name(file)): \(error)", command: "validate")
                if status == ExitCode.success { status = ExitCode.ioError }
            }
        }
        if status != ExitCode.success { return status }
        return problems > 0 ? ExitCode.problems : ExitCode.success
    }

    /// Reads a whole stream and reports every problem, in line order.
    static func check(fd: Int32, report: (Diagnostic) throws -> Void) throws {
        var reader = EventStreamReader(source: FileDescriptorSource(fileDescriptor: fd))
        var validator = StreamValidator()
        var lastLine = 0
        try reader.forEach { item in
            guard item.isLineStart else { return }
            lastLine = item.line
            switch item.decoded {
            case .event(let event):
                for diagnostic in validator.check(event, line: item.line) { try report(diagnostic) }
            case .blank, .ignored(nil):
                break
            case .ignored(let diagnostic?), .text(let diagnostic), .invalid(let diagnostic):
                try report(diagnostic)
            }
        }
        for diagnostic in validator.finish(atLine: lastLine) { try report(diagnostic) }
    }

    static func textLine(_ file: String, _ diagnostic: Diagnostic) -> String {
        "\(file):\(diagnostic.line): \(diagnostic.code.rawValue): \(diagnostic.message)\n"
    }

    static func jsonLine(_ file: String, _ diagnostic: Diagnostic) -> String {
        "{\"file\":\(JSONText.quoted(file)),\"line\":\(diagnostic.line),"
            + "\"code\":\"\(diagnostic.code.rawValue)\",\"severity\":\"\(diagnostic.severity.rawValue)\","
            + "\"message\":\(JSONText.quoted(diagnostic.message))}\n"
    }

}
