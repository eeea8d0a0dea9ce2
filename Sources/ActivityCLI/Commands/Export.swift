import ActivityTimeline

/// `activity export --format chrome-trace|otlp-json [-o FILE] RECORDING`: converts a recording for
/// trace viewers (Perfetto, `chrome://tracing`) or OpenTelemetry.
enum ExportCommand {
    enum Format: String, CaseIterable {
        case chromeTrace = "chrome-trace"
        case otlpJSON = "otlp-json"
    }

    static let parser = ArgumentParser(
        command: "export",
        usage: "activity export --format chrome-trace|otlp-json [-o FILE] [--service-name NAME] RECORDING",
        options: [.value("format"), .value("output", short: "o"), .value("service-name")])

    static func run(_ arguments: [String]) throws(CommandLineError) -> Int32 {
        let parsed = try parser.parse(arguments)
        guard let format = try parser.choice(parsed, "format", among: Format.allCases) else {
            throw parser.usageError("missing --format")
        }
        try parser.expectPositionals(parsed, 1...1, names: "RECORDING")
        if parsed.value("output") == "" { throw parser.usageError("--output needs a path") }
        if parsed.value("service-name") != nil && format != .otlpJSON {
            throw parser.usageError("--service-name needs --format otlp-json")
        }
        let loaded: RecordingInput.Loaded
        switch RecordingInput.read(parsed.positionals[0], command: "export") {
        case .success(let read): loaded = read
        case .failure(let error):
            Console.error(error.message, command: "export")
            return error.exitStatus
        }
        let text: String
        switch format {
        case .chromeTrace:
            text = ChromeTraceWriter().write(loaded.timeline)
        case .otlpJSON:
            let resource = OTLPSettings.resource(environment: POSIX.environment)
            text = OTLPTraceWriter(
                serviceName: parsed.value("service-name") ?? resource.serviceName,
                resourceAttributes: resource.attributes, version: Help.version
            ).write(loaded.timeline)
        }
        return RecordingInput.write(text, to: parsed.value("output") ?? "-", command: "export")
    }
}
