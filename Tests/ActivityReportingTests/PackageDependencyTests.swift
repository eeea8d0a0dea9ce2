import ActivityWire
import Foundation
import TestSupport
import Testing

/// The README's SwiftPM lines, as a package that depends on this one would write them.
@Suite("Depending on the package")
struct PackageDependencyTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `.product(…)` line of the README's dependency snippet, as it reads now.
    static func readmeProductLine() throws -> String {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let product = lines.first { $0.contains(".product(name:") && $0.contains("ActivityReporting") }
        return try #require(product, "the README has no .product line for ActivityReporting")
            .trimmingCharacters(in: .whitespaces)
    }

    @Test("The README names the product and the package as SwiftPM knows them")
    func readmeSnippet() throws {
        #expect(try Self.readmeProductLine() == #".product(name: "ActivityReporting", package: "swift-activity")"#)
    }

    /// Depending by path names the package after the dependency's folder: the checkout is reached
    /// through a link named `swift-activity`, whatever its own folder is called (CI clones elsewhere).
    @Test("A package depending on this one by path, with the README's product line, builds and reports")
    func dependentPackageBuilds() async throws {
        let swift = try #require(executableOnPath("swift"), "swift is not on PATH")
        let productLine = try Self.readmeProductLine()
        try await withTemporaryFolder { folder in
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent("swift-activity"), withDestinationURL: Self.packageRoot)
            let consumer = folder.appendingPathComponent("consumer")
            let sources = consumer.appendingPathComponent("Sources/consumer")
            try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
            try """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "consumer",
                dependencies: [.package(path: "../swift-activity")],
                targets: [.executableTarget(name: "consumer", dependencies: [\(productLine)])]
            )

            """.write(to: consumer.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
            try """
            import ActivityReporting

            try await withActivity("Consuming", total: 2, unit: "steps") { steps in steps.advance(by: 2) }
            print("consumed")

            """.write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
            var environment = ProcessInfo.processInfo.environment
            environment["ACTIVITY_SINK"] = nil
            environment["ACTIVITY_PARENT"] = nil
            let built = try await runProcess(
                URL(fileURLWithPath: swift), ["build", "--package-path", consumer.path], environment: environment)
            try #require(
                built.status == 0,
                "swift build failed:\n\(built.text)\n\(String(decoding: built.errors, as: UTF8.self))")
            let events = folder.appendingPathComponent("events.jsonl")
            environment["ACTIVITY_SINK"] = "file:\(events.path)"
            let ran = try await runProcess(
                consumer.appendingPathComponent(".build/debug/consumer"), environment: environment)
            #expect(ran.status == 0, "\(String(decoding: ran.errors, as: UTF8.self))")
            #expect(ran.text == "consumed\n")
            let decoded = decodeEvents(readBytes(events))
            #expect(decoded.compactMap(\.begin).map(\.title) == ["Consuming"])
            #expect(decoded.compactMap(\.end).map(\.status) == [.success])
        }
    }
}
