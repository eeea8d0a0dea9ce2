import ActivityPOSIX
import ActivityTimeline

/// `activity export --format chrome-trace|otlp-json [-o FILE] RECORDING`: converts a recording for
/// trace viewers (Perfetto, `chrome://tracing`) or OpenTelemetry.
enum ExportCommand {
    enum Format: String, CaseIterable {
        case chromeTrace = "chrome-trace"
        case otlpJSON = "otlp-json"
    }

    static let spec = CommandSpec(
        name: "export", summary: "convert a recording to a Chrome trace or OpenTelemetry (OTLP JSON)",
        arguments: "RECORDING", positionals: .file,
        optionGroups: [
            OptionGroup(
                title: "options",
                options: [
                    .value(
                        "format", "FORMAT", values: .choices(Format.allCases.map(\.rawValue)), required: true,
                        help: "chrome-trace or otlp-json"),
                    .value(
                        "output", "FILE", short: "o", values: .file, help: "where to write (default: standard output)"),
                    .value(
                        "service-name", "NAME",
                        help: "service.name for otlp-json (default: OTEL_SERVICE_NAME, else activity)"),
                ])
        ],
        description: """
            Converts a recording (made with --log-file PATH --log-format jsonl) for other tools:
                chrome-trace  the Trace Event Format: open it in https://ui.perfetto.dev or
                              chrome://tracing. Activities that overlap their siblings are async slices.
                otlp-json     OpenTelemetry traces in the OTLP JSON encoding (ExportTraceServiceRequest):
                              an activity is a span, logs are span events, the outcome is the status.
                              The same recording always gives the same trace and span ids.

            Memory holds a few words per activity, not the recording: each activity's part of the output
            waits in a temporary file in TMPDIR (about the output's size) until all are made. The Chrome
            trace reads RECORDING twice; standard input is first copied to a temporary file.

            Exits 0 when written, 65 when RECORDING holds no events, 66 when it is not found, 73 when
            FILE cannot be created, 74 on a read error or when the temporary file fails.
            """)
    static let parser = OptionParser(spec)

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
        let output = parsed.value("output") ?? "-"
        switch format {
        case .chromeTrace:
            return TraceExport.chromeTrace(parsed.positionals[0], writer: ChromeTraceWriter(), to: output)
        case .otlpJSON:
            let resource = OTLPSettings.resource(environment: SystemCall.environment)
            let writer = OTLPTraceWriter(
                serviceName: parsed.value("service-name") ?? resource.serviceName,
                resourceAttributes: resource.attributes, version: Commands.version)
            return TraceExport.otlp(parsed.positionals[0], writer: writer, to: output)
        }
    }
}
