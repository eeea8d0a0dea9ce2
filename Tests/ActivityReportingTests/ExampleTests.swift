import ActivityWire
import Foundation
import TestSupport
import Testing

@Suite("Examples/swift")
struct ExampleTests {
    static let program = CommandRunner.binFolder.appendingPathComponent("activity-example-downloads")

    /// Runs the example with `ACTIVITY_SINK=file:…` and returns its exit status and the stream.
    func run(_ arguments: [String]) async throws -> (status: Int32, output: String, events: [UInt8]) {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("events.jsonl").path
            var environment = ProcessInfo.processInfo.environment
            environment["ACTIVITY_SINK"] = "file:\(path)"
            environment["ACTIVITY_PARENT"] = nil
            let result = try await runProcess(Self.program, arguments, environment: environment)
            return (result.status, result.text, readBytes(URL(fileURLWithPath: path)))
        }
    }

    @Test("The downloads example reports a valid tree: files under the batch, checks under each file")
    func downloads() async throws {
        let result = try await run(["--files", "3", "--fast"])
        #expect(result.status == 0)
        #expect(result.output == "downloaded 3 files\n")
        #expect(problems(inLines: result.events) == [])
        let events = decodeEvents(result.events)
        let begins = events.compactMap(\.begin)
        #expect(begins.count == 7)
        let root = try #require(begins.first)
        #expect(root.parent == nil)
        #expect(root.title == "Downloading 3 files")
        let files = begins.filter { $0.parent == root.id }
        #expect(files.map(\.unit) == ["bytes", "bytes", "bytes"])
        let checks = begins.filter { $0.title == "Verifying checksum" }
        #expect(Set(checks.compactMap(\.parent)) == Set(files.map(\.id)))
        let lastProgress = Dictionary(
            events.compactMap { event -> (ActivityID, Double)? in
                if case .progress(let p) = event, let c = p.completed { return (p.id, c) }
                if case .end(let e) = event, let c = e.completed { return (e.id, c) }
                return nil
            },
            uniquingKeysWith: { _, new in new })
        for file in files { #expect(lastProgress[file.id] == file.total) }
        #expect(events.compactMap(\.end).allSatisfy { $0.status == .success })
    }

    @Test("A bad ACTIVITY_SINK prints one warning and changes nothing else")
    func badSetting() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["ACTIVITY_SINK"] = "carrier-pigeon:coop-3"
        environment["ACTIVITY_PARENT"] = "not an id!"
        let result = try await runProcess(Self.program, ["--files", "2", "--fast"], environment: environment)
        #expect(result.status == 0)
        #expect(result.text == "downloaded 2 files\n")
        let warnings = String(decoding: result.errors, as: UTF8.self).split(separator: "\n")
        #expect(warnings.count == 2)
        #expect(warnings.allSatisfy { $0.hasPrefix("swift-activity: warning: ") && $0.hasSuffix("(shown once)") })
        #expect(warnings.contains { $0.contains("ACTIVITY_SINK=\"carrier-pigeon:coop-3\"") })
        #expect(warnings.contains { $0.contains("ACTIVITY_PARENT=\"not an id!\"") })
    }

    /// Runs the example with fd 3 opened by the shell as `redirection` says (`3<>FILE`, `3>>FILE`)
    /// and `ACTIVITY_SINK=fd:3`; returns the file's bytes afterwards and the warnings.
    func runWithDescriptor3(_ redirection: String) async throws -> (file: [UInt8], warnings: [Substring]) {
        try await withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("data.csv")
            try Data("precious,data\n".utf8).write(to: file)
            var environment = ProcessInfo.processInfo.environment
            environment["ACTIVITY_SINK"] = "fd:3"
            environment["ACTIVITY_PARENT"] = nil
            let result = try await runProcess(
                URL(fileURLWithPath: "/bin/sh"),
                ["-c", "exec 3\(redirection)\"$1\"; exec \"$2\" --files 1 --fast", "sh", file.path, Self.program.path],
                environment: environment)
            #expect(result.status == 0)
            #expect(result.text == "downloaded 1 file\n")
            return (readBytes(file), String(decoding: result.errors, as: UTF8.self).split(separator: "\n"))
        }
    }

    @Test("ACTIVITY_SINK=fd:N on a data file that is not open for appending: reporting off, one warning")
    func descriptorOnDataFile() async throws {
        let (file, warnings) = try await runWithDescriptor3("<>")
        #expect(file == Array("precious,data\n".utf8))
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("ACTIVITY_SINK=\"fd:3\"") == true)
        #expect(warnings.first?.contains("not opened for appending") == true)
    }

    @Test("ACTIVITY_SINK=fd:N on a file opened for appending is a recording: the events go there")
    func descriptorOnAppendedFile() async throws {
        let (file, warnings) = try await runWithDescriptor3(">>")
        #expect(warnings.isEmpty)
        #expect(file.starts(with: Array("precious,data\n".utf8)))
        #expect(problems(inLines: Array(file.dropFirst(14))) == [])
        #expect(decodeEvents(Array(file.dropFirst(14))).count > 4)
    }

    @Test("A failing download ends as failure with its error; the others finish")
    func failure() async throws {
        let result = try await run(["--files", "2", "--fast", "--fail", "archive-2.tar.gz"])
        #expect(result.status == 1)
        #expect(problems(inLines: result.events) == [])
        let ends = decodeEvents(result.events).compactMap(\.end)
        #expect(
            ends.filter { $0.status == .failure }.map(\.error) == [
                "connection reset while downloading archive-2.tar.gz"
            ])
        #expect(ends.filter { $0.status == .success }.count == 3)
    }
}
