import ActivityTimeline

/// `activity report [-o FILE] [--format html|svg] [--title TEXT] RECORDING`: draws a recording as
/// a self-contained HTML page (or the timeline alone as SVG).
enum ReportCommand {
    enum Format: String, CaseIterable {
        case html, svg
    }

    static let parser = ArgumentParser(
        command: "report", usage: "activity report [-o FILE] [--format html|svg] [--title TEXT] RECORDING",
        options: [.value("output", short: "o"), .value("format"), .value("title")])

    static func run(_ arguments: [String]) throws(CommandLineError) -> Int32 {
        let parsed = try parser.parse(arguments)
        try parser.expectPositionals(parsed, 1...1, names: "RECORDING")
        let format = try parser.choice(parsed, "format", among: Format.allCases) ?? .html
        let file = parsed.positionals[0]
        if parsed.value("output") == "" { throw parser.usageError("--output needs a path") }
        let output = parsed.value("output") ?? defaultOutput(for: file, format: format)
        let loaded: RecordingInput.Loaded
        switch RecordingInput.read(file, command: "report") {
        case .success(let read): loaded = read
        case .failure(let error):
            Console.error(error.message, command: "report")
            return error.exitStatus
        }
        let text: String
        switch format {
        case .html:
            text = HTMLReportWriter(
                title: parsed.value("title"), source: file == "-" ? nil : baseName(file),
                skippedLines: loaded.skippedLines
            ).write(loaded.timeline)
        case .svg:
            text = SVGTimelineWriter(title: parsed.value("title")).write(loaded.timeline)
        }
        let status = RecordingInput.write(text, to: output, command: "report")
        if status == ExitCode.success && output != "-" {
            Console.error("wrote \(output) (\(loaded.timeline.activities.count) activities)", command: "report")
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
