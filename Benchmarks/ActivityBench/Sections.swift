/// The benchmark's sections. Each runs in a fresh child process, so process-wide state (the SDK's
/// bootstrap, the C library's sink) starts clean and peak memory is measured per section.
enum Sections {
    struct Section: Sendable {
        var name: String
        var summary: String
        var run: @Sendable (BenchSettings) throws -> [Figure]
    }

    static let all: [Section] = [
        Section(name: "wire", summary: "decoding and encoding throughput") { try WireBenchmarks.figures(settings: $0) },
        Section(name: "sdk-advance", summary: "Swift advance(by:) with a sink") {
            try ReportingBenchmarks.attached(settings: $0)
        },
        Section(name: "sdk-disabled", summary: "Swift advance(by:) with reporting off") {
            try ReportingBenchmarks.disabled(settings: $0)
        },
        Section(name: "sdk-pipe", summary: "Swift SDK events per second into a pipe") {
            try ReportingBenchmarks.pipeThroughput(settings: $0)
        },
        Section(name: "c-advance", summary: "C activity_advance with a sink") {
            try CLibraryBenchmarks.attached(settings: $0)
        },
        Section(name: "c-disabled", summary: "C activity_advance with reporting off") {
            try CLibraryBenchmarks.disabled(settings: $0)
        },
        Section(name: "c-pipe", summary: "C library events per second into a pipe") {
            try CLibraryBenchmarks.pipeThroughput(settings: $0)
        },
        Section(name: "fold", summary: "decode and fold into the store") {
            try StoreBenchmarks.foldFigures(settings: $0)
        },
        Section(name: "frames", summary: "TTY frame build time") { try FrameBenchmarks.figures(settings: $0) },
        Section(name: "screen", summary: "the screen model of a command's terminal") {
            ScreenBenchmarks.figures(settings: $0)
        },
        Section(name: "run-terminal", summary: "activity run on a pty read at once, over bare") {
            try TerminalRunBenchmarks.figures(settings: $0)
        },
        Section(name: "memory", summary: "peak RSS over 10 M events and 1 M activities") {
            try StoreBenchmarks.peakMemory(settings: $0)
        },
        Section(name: "startup", summary: "activity --version start-up") {
            try CommandBenchmarks.startup(settings: $0)
        },
        Section(name: "render", summary: "activity render end to end from a file") {
            try CommandBenchmarks.render(settings: $0)
        },
        Section(name: "renderer-cpu", summary: "renderer CPU with 100 busy activities") {
            try CommandBenchmarks.rendererCPU(settings: $0)
        },
    ]
}
