import ActivityRendererConformance
import ActivityRendering
import Testing

/// Every renderer the package ships, through the check it ships for other people's.
@Suite("The package's renderers pass the renderer conformance check")
struct OurRenderersConformTests {
    /// The renderers, each with its output kept in memory and whether that output is a terminal.
    static let renderers: [String] = [
        "terminal, live", "terminal, live, no colour", "terminal, plain lines to a pipe",
        "terminal, plain lines on a terminal", "log file, text", "log file, jsonl", "JSON lines",
        "JSON lines with text passed through", "multiplex of a live terminal and a log file", "no-op",
    ]

    static func subject(_ name: String) -> RendererConformance.Subject {
        let output = BufferOutput()
        let written = { output.bytes }
        switch name {
        case "terminal, live":
            var configuration = TerminalRenderer.Configuration(
                mode: .tty, style: TerminalStyle(unicode: true, color: true), size: TerminalSize(columns: 100, rows: 30)
            )
            configuration.taskbarProgress = true
            configuration.eventsAreLive = true
            return .init(
                TerminalRenderer(output: output, configuration: configuration), isTerminal: true, written: written)
        case "terminal, live, no colour":
            let configuration = TerminalRenderer.Configuration(
                mode: .tty, style: TerminalStyle(unicode: false, color: false), size: TerminalSize(columns: 40, rows: 5)
            )
            return .init(
                TerminalRenderer(output: output, configuration: configuration), isTerminal: true, written: written)
        case "terminal, plain lines to a pipe":
            return .init(
                TerminalRenderer(output: output, configuration: .init(mode: .plain)), isTerminal: false,
                written: written)
        case "terminal, plain lines on a terminal":
            return .init(
                TerminalRenderer(output: output, configuration: .init(mode: .plain, displayIsTerminal: true)),
                isTerminal: true, written: written)
        case "log file, text":
            return .init(
                LogFileRenderer(output: output, format: .text, clock: { 1_800_000_000 }), isTerminal: false,
                written: written)
        case "log file, jsonl":
            return .init(
                LogFileRenderer(output: output, format: .jsonl, clock: { 1_800_000_000 }), isTerminal: false,
                written: written)
        case "JSON lines":
            return .init(JSONLinesRenderer(output: output), isTerminal: false, written: written)
        case "JSON lines with text passed through":
            return .init(
                JSONLinesRenderer(output: output, passesTextThrough: true), isTerminal: false, written: written)
        case "multiplex of a live terminal and a log file":
            let terminal = TerminalRenderer(
                output: output,
                configuration: .init(mode: .tty, style: TerminalStyle(unicode: true, color: true)))
            let log = LogFileRenderer(output: BufferOutput(), format: .text, clock: { 1_800_000_000 })
            return .init(MultiplexRenderer([terminal, log]), isTerminal: true, written: written)
        default:
            return .init(NoOpRenderer(), isTerminal: true, written: nil)
        }
    }

    /// The time limits are left out here: a test's outcome must not depend on the machine's
    /// load (the renderers' speed is measured by activity-bench, not asserted). What is checked
    /// is every promise that does not depend on time.
    static let limits = RendererConformance.Limits(longestCall: .seconds(86_400), meanRender: .seconds(86_400))

    @Test("conforms", arguments: renderers)
    func conforms(_ name: String) {
        let problems = RendererConformance.check(limits: Self.limits) { Self.subject(name) }
        #expect(problems.isEmpty, "\(name): \(problems.map(\.description).joined(separator: "\n"))")
    }
}
