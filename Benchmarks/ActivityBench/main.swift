import Foundation

#if canImport(Glibc)
    import Glibc
#endif

let usage = """
    usage: activity-bench [--quick] [--runs N] [--output DIR] [--only SECTION[,SECTION…]]

    Measures the hot paths of swift-activity in a release build and writes
    DIR/results.json and DIR/results.md (DIR defaults to bench-results).
      --quick       fewer iterations and runs: checks that every benchmark works
      --runs N      measured runs per figure, after one warm-up (default 5; 2 with --quick)
      --output DIR  where to write the results
      --only LIST   run only these sections: \(Sections.all.map(\.name).joined(separator: ", "))
    """

func fail(_ message: String, status: Int32 = 64) -> Never {
    FileHandle.standardError.write(Data("activity-bench: \(message)\n".utf8))
    exit(status)
}

var settings = BenchSettings(runs: 5, scale: 1)
var output = "bench-results"
var only: Set<String>?
var childSection: String?
var runsGiven: Int?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick":
        settings.scale = 0.02
    case "--runs":
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            fail("--runs needs a positive number\n\(usage)")
        }
        runsGiven = value
    case "--output":
        guard let value = arguments.popFirst() else { fail("--output needs a directory\n\(usage)") }
        output = value
    case "--only":
        guard let value = arguments.popFirst() else { fail("--only needs section names\n\(usage)") }
        let names = Set(value.split(separator: ",").map(String.init))
        let unknown = names.subtracting(Sections.all.map(\.name))
        guard unknown.isEmpty else { fail("unknown section \(unknown.sorted().joined(separator: ", "))\n\(usage)") }
        only = names
    case "--section":  // internal: run one section in this process and print its figures as JSON
        childSection = arguments.popFirst()
    case "--profile":  // internal: fold one workload once, for `valgrind --tool=callgrind`
        guard let name = arguments.popFirst(), let workload = Workload(rawValue: name) else {
            fail("--profile needs one of \(Workload.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let events = arguments.popFirst().flatMap(Int.init) ?? 100_000
        let stream = workload.stream(events: events)
        do {
            print(try StoreBenchmarks.foldOnce(stream), "events folded")
        } catch {
            fail("\(error)", status: 1)
        }
        exit(0)
    case "--write-stream":  // internal: write a workload's stream to a file, for Benchmarks/compare.sh
        guard let name = arguments.popFirst(), let workload = Workload(rawValue: name),
            let path = arguments.popFirst()
        else { fail("--write-stream needs a workload and a file") }
        let events = arguments.popFirst().flatMap(Int.init) ?? 1_000_000
        guard FileManager.default.createFile(atPath: path, contents: Data(workload.stream(events: events))) else {
            fail("cannot write \(path)", status: 73)
        }
        exit(0)
    case "--ingest":  // internal: decode FILE as written and re-encoded canonically, for Benchmarks/ingest.sh
        guard let path = arguments.popFirst() else { fail("--ingest needs a file") }
        do {
            let result = try IngestBenchmarks.measure(path: path, runs: runsGiven ?? 3)
            FileHandle.standardOutput.write(try JSONEncoder().encode(result))
        } catch {
            fail("\(error)", status: 1)
        }
        exit(0)
    case "--decode-once":  // internal: decode FILE once, for `valgrind --tool=callgrind`
        guard let path = arguments.popFirst(), let data = FileManager.default.contents(atPath: path) else {
            fail("--decode-once needs a readable file")
        }
        do {
            print(try IngestBenchmarks.decodeOnce([UInt8](data)), "events decoded")
        } catch {
            fail("\(error)", status: 1)
        }
        exit(0)
    case "--write-canonical":  // internal: FILE's events re-encoded canonically into OUT
        guard let path = arguments.popFirst(), let out = arguments.popFirst(),
            let data = FileManager.default.contents(atPath: path)
        else { fail("--write-canonical needs a readable file and an output file") }
        do {
            let bytes = try IngestBenchmarks.canonicalForm(of: [UInt8](data))
            guard FileManager.default.createFile(atPath: out, contents: Data(bytes)) else {
                fail("cannot write \(out)", status: 73)
            }
        } catch {
            fail("\(error)", status: 1)
        }
        exit(0)
    case "--scale":  // internal, with --section
        settings.scale = arguments.popFirst().flatMap(Double.init) ?? settings.scale
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        fail("unknown argument '\(argument)'\n\(usage)")
    }
}
settings.runs = runsGiven ?? (settings.scale < 1 ? 2 : 5)

if let name = childSection {
    guard let section = Sections.all.first(where: { $0.name == name }) else { fail("no section \(name)") }
    do {
        let figures = try section.run(settings)
        FileHandle.standardOutput.write(try JSONEncoder().encode(figures))
        exit(0)
    } catch {
        fail("\(name) failed: \(error)", status: 1)
    }
}

/// Runs a section in a child process and returns its figures.
func runInChild(_ section: Sections.Section, settings: BenchSettings) throws -> [Figure] {
    let process = Process()
    process.executableURL = URL(
        filePath: CommandLine.arguments[0].contains("/") ? CommandLine.arguments[0] : "/proc/self/exe")
    if !FileManager.default.isExecutableFile(atPath: process.executableURL!.path) {
        process.executableURL = URL(filePath: "/proc/self/exe")
    }
    process.arguments = ["--section", section.name, "--runs", "\(settings.runs)", "--scale", "\(settings.scale)"]
    let outputFile = FileManager.default.temporaryDirectory.appending(
        path: "activity-bench-\(getpid())-\(section.name)")
    _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: outputFile) }
    let handle = try FileHandle(forWritingTo: outputFile)
    process.standardOutput = handle
    try process.run()
    process.waitUntilExit()
    try handle.close()
    guard process.terminationStatus == 0 else {
        throw BenchError("section \(section.name) exited with status \(process.terminationStatus)")
    }
    return try JSONDecoder().decode([Figure].self, from: Data(contentsOf: outputFile))
}

var figures: [Figure] = []
for section in Sections.all where only?.contains(section.name) ?? true {
    FileHandle.standardError.write(Data("measuring \(section.name): \(section.summary)…\n".utf8))
    do {
        figures += try runInChild(section, settings: settings)
    } catch {
        fail("\(error)", status: 1)
    }
}

do {
    try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
    try Report.json(figures, settings: settings).write(to: URL(filePath: output).appending(path: "results.json"))
    let table = Report.table(figures)
    try Data(table.utf8).write(to: URL(filePath: output).appending(path: "results.md"))
    print(table, terminator: "")
    FileHandle.standardError.write(Data("results written to \(output)/results.json and results.md\n".utf8))
} catch {
    fail("cannot write results to \(output): \(error)", status: 73)
}
