import Foundation

#if canImport(Glibc)
    import Glibc
#endif

let usage = """
    usage: activity-bench [--quick] [--runs N] [--output DIR]

    Measures the hot paths of swift-activity in a release build and writes
    DIR/results.json and DIR/results.md (DIR defaults to bench-results).
      --quick      fewer iterations and runs: checks that every benchmark works
      --runs N     measured runs per figure (default 5; 2 with --quick)
      --output DIR where to write the results
    """

var settings = BenchSettings(runs: 5, scale: 1)
var output = "bench-results"
var arguments = CommandLine.arguments.dropFirst()
var runsGiven: Int?
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick":
        settings.scale = 0.02
    case "--runs":
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            FileHandle.standardError.write(Data("activity-bench: --runs needs a positive number\n\(usage)\n".utf8))
            exit(64)
        }
        runsGiven = value
    case "--output":
        guard let value = arguments.popFirst() else {
            FileHandle.standardError.write(Data("activity-bench: --output needs a directory\n\(usage)\n".utf8))
            exit(64)
        }
        output = value
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(Data("activity-bench: unknown argument '\(argument)'\n\(usage)\n".utf8))
        exit(64)
    }
}
settings.runs = runsGiven ?? (settings.scale < 1 ? 2 : 5)

var figures: [Figure] = []
@MainActor func section(_ name: String, _ body: () throws -> [Figure]) {
    FileHandle.standardError.write(Data("measuring \(name)…\n".utf8))
    do {
        figures += try body()
    } catch {
        FileHandle.standardError.write(Data("activity-bench: \(name) failed: \(error)\n".utf8))
        exit(1)
    }
}

section("the wire library") { try WireBenchmarks.figures(settings: settings) }

do {
    try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
    try Report.json(figures, settings: settings).write(to: URL(filePath: output).appending(path: "results.json"))
    let table = Report.table(figures)
    try Data(table.utf8).write(to: URL(filePath: output).appending(path: "results.md"))
    print(table, terminator: "")
    FileHandle.standardError.write(Data("results written to \(output)/results.json and results.md\n".utf8))
} catch {
    FileHandle.standardError.write(Data("activity-bench: cannot write results to \(output): \(error)\n".utf8))
    exit(73)
}
