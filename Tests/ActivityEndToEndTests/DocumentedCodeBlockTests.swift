import Foundation
import TestSupport
import Testing

/// Every code block of the README and the docs that a reader would run is run here, as the
/// Markdown now reads, or is marked as an illustration with its reason
/// (`Support/MarkdownCodeBlocks.swift` says how; CONTRIBUTING.md too).
@Suite("The documents' code blocks: run as written, or marked as illustrations")
struct DocumentedCodeBlockTests {
    static let documents: [String] = ["README.md", "Python/README.md", "Benchmarks/README.md"] + guides + articles

    /// `Docs/*.md`.
    static let guides: [String] = markdown(in: "Docs")

    /// The articles of every DocC catalog, `Sources/MODULE/MODULE.docc/*.md`.
    static let articles: [String] = {
        let modules = (try? FileManager.default.contentsOfDirectory(atPath: Repository.path("Sources"))) ?? []
        return modules.sorted().flatMap { module in
            let catalogs =
                (try? FileManager.default.contentsOfDirectory(atPath: Repository.path("Sources/" + module))) ?? []
            return catalogs.filter { $0.hasSuffix(".docc") }.sorted().flatMap {
                markdown(in: "Sources/\(module)/\($0)")
            }
        }
    }()

    static func markdown(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Repository.path(folder))) ?? []
        return names.filter { $0.hasSuffix(".md") }.sorted().map { folder + "/" + $0 }
    }

    static let blocks: [MarkdownCodeBlock] = documents.flatMap {
        (try? MarkdownCodeBlock.blocks(in: $0, root: Repository.root)) ?? []
    }

    static var runnable: [MarkdownCodeBlock] {
        blocks.filter { MarkdownCodeBlock.runnable.contains($0.language) }
    }

    static var run: [MarkdownCodeBlock] {
        runnable.filter {
            switch $0.marker {
            case .run?, .runPython?: true
            default: false
            }
        }
    }

    @Test("every block a reader would run is run or says why not")
    func everyBlockMarked() {
        #expect(Self.documents.count > 5)
        // The catalogs of the wire, reporting, rendering, conformance and overlay modules.
        #expect(Self.articles.count >= 9, "\(Self.articles)")
        #expect(Self.runnable.count > 40)
        for block in Self.runnable {
            switch block.marker {
            case .illustration(let reason)?:
                #expect(!reason.isEmpty, "\(block.testDescription): an illustration gives its reason")
            case .run(let command)?:
                #expect(!command.isEmpty, "\(block.testDescription)")
            case .runPython?:
                #expect(block.language == "python", "\(block.testDescription): run python: on a python block")
            case nil:
                Issue.record(
                    "\(block.testDescription) has no marker: <!-- run: COMMAND --> or <!-- illustration: REASON -->")
            }
        }
    }

    @Test("a block marked to run runs as written", arguments: run)
    func runs(_ block: MarkdownCodeBlock) throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("block")
        let environment = [
            "BLOCK": file.path, "PYTHONPATH": Repository.path("Python/src"), "HOME": folder.url.path,
        ]
        let result: CommandResult
        switch block.marker {
        case .runPython(let prelude)?:
            try (prelude + "\n" + block.text).write(to: file, atomically: true, encoding: .utf8)
            result = try CommandRunner.run(
                "/usr/bin/env", ["python3", file.path], environment: environment, currentDirectory: folder.url)
        case .run(let command)?:
            try block.text.write(to: file, atomically: true, encoding: .utf8)
            result = try CommandRunner.run(
                "/bin/sh", ["-e", "-c", command], environment: environment, currentDirectory: folder.url)
        default:
            return
        }
        #expect(
            result.status == 0 && !result.killed,
            "\(block.testDescription): status \(result.status)\n\(result.standardOutput)\n\(result.standardError)")
    }
}
