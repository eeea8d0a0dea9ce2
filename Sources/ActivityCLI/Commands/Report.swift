import ActivityTimeline

/// `activity report [-o FILE] [--format html|svg] [--title TEXT] RECORDING`: draws a recording as
/// a self-contained HTML page (or the timeline alone as SVG).
enum ReportCommand {
    enum Format: String, CaseIterable {
        case html, svg
    }

    static let spec = CommandSpec(
        name: "report", summary: "draw a recording as an HTML page: timeline, critical path, failures",
        arguments: "RECORDING", positionals: .file,
        optionGroups: [
            OptionGroup(
                title: "options",
                options: [
                    .value(
                        "output", "FILE", short: "o", values: .file,
                        help: "where to write ('-' for standard output); default: RECORDING's name with .html "
                            + "(or .svg) in the current directory"),
                    .value(
                        "format", "FORMAT", values: .choices(Format.allCases.map(\.rawValue)),
                        help: "html (default), or svg: the timeline alone, for a README or a chat"),
                    .value("title", "TEXT", help: "the heading (default: the first top-level activity's title)"),
                ])
        ],
        description: """
            Draws a recording (made with --log-file PATH --log-format jsonl) as one self-contained HTML
            page: a timeline of every activity, nested as in the tree and coloured by outcome, with the
            critical path outlined (details on hover and click, zoom on time); the critical path, every
            failure with its log lines and the slowest activities as tables; a summary. The page loads
            nothing from the network. Lines that are not events are named on standard error and skipped.

            Past 10,000 activities the shortest merge into aggregate bars, and the tables list the first
            500 failures and the 200 longest steps of the critical path. Memory holds a few words per
            activity, not the recording: RECORDING is read twice, and only what is shown is kept the
            second time; standard input is first copied to a temporary file in TMPDIR.

            Exits 0 when written, 65 when RECORDING holds no events, 66 when it is not found, 73 when
            FILE cannot be created, 74 on a read error or when the temporary file fails.
            """)
    static let parser = OptionParser(spec)

    static func run(_ arguments: [String]) throws(CommandLineError) -> Int32 {
        let parsed = try parser.parse(arguments)
        try parser.expectPositionals(parsed, 1...1, names: "RECORDING")
        let format = try parser.choice(parsed, "format", among: Format.allCases) ?? .html
        let file = parsed.positionals[0]
        if parsed.value("output") == "" { throw parser.usageError("--output needs a path") }
        let output = parsed.value("output") ?? defaultOutput(for: file, format: format)
        let text: String
        let activities: Int
        switch format {
        case .html:
            var writer = HTMLReportWriter(title: parsed.value("title"), source: file == "-" ? nil : baseName(file))
            switch ReportPasses.read(file, plan: writer.plan, needed: \.needed, keep: writer.shownPart) {
            case .success(let read):
                writer.skippedLines = read.summary.skippedLines
                text = writer.write(read.plan, looseLogCount: read.summary.looseLogs.count) { read.kept[$0]! }
                activities = read.plan.skeleton.count
            case .failure(let error):
                Console.error(error.message, command: "report")
                return error.exitStatus
            }
        case .svg:
            let writer = SVGTimelineWriter(title: parsed.value("title"))
            switch ReportPasses.read(file, plan: writer.drawing, needed: \.needed, keep: writer.shownPart) {
            case .success(let read):
                text = writer.write(read.plan) { read.kept[$0]! }
                activities = read.plan.skeleton.count
            case .failure(let error):
                Console.error(error.message, command: "report")
                return error.exitStatus
            }
        }
        let status = RecordingInput.write(text, to: output, command: "report")
        if status == ExitCode.success && output != "-" {
            Console.error("wrote \(output) (\(activities) activities)", command: "report")
        }
        return status
    }

    /// `build.jsonl` → `build.html`; standard input → `report.html`.
    static func defaultOutput(for file: String, format: Format) -> String {
        guard file != "-" else { return "report.\(format.rawValue)" }
        var name = baseName(file)
        for suffix in [".jsonl", ".json", ".log"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
            break
        }
        return name + "." + format.rawValue
    }

    static func baseName(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    }
}
