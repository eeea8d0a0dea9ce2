import Foundation
import Testing

/// The documents point only at what is there: every relative link and every repository path in
/// code voice names a file or folder of the repository, and no document or source cites a design
/// file the repository does not hold.
@Suite("The documents' references: every file they name exists")
struct DocumentReferenceTests {
    static let documents: [String] =
        DocumentedCodeBlockTests.documents + ["CONTRIBUTING.md", "CHANGELOG.md"]
        + DocumentedCodeBlockTests.markdown(in: "Schemas")

    /// `[text](target)`: a target without a scheme is a path relative to the document.
    static var link: Regex<(Substring, Substring)> { /\]\(([^)\s]+)\)/ }
    /// A path in code voice that starts with a top-level folder of the repository.
    static var path: Regex<(Substring, Substring)> {
        /`((?:Sources|Docs|Schemas|Scripts|Tests|Examples|Benchmarks|Python)\/[^`\s]*)`/
    }

    static func text(of document: String) throws -> String {
        try String(contentsOfFile: Repository.path(document), encoding: .utf8)
    }

    static func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: Repository.path(relative))
    }

    @Test("every relative link leads to a file", arguments: documents)
    func links(_ document: String) throws {
        let folder = (document as NSString).deletingLastPathComponent
        for match in try Self.text(of: document).matches(of: Self.link) {
            let target = String(match.1)
            guard target.firstMatch(of: /^[a-z]+:/) == nil, !target.hasPrefix("#") else { continue }
            let file = String(target.prefix { $0 != "#" })
            let relative = ((folder as NSString).appendingPathComponent(file) as NSString).standardizingPath
            #expect(Self.exists(relative), "\(document) links to \(target), which is not there")
        }
    }

    @Test("every repository path in code voice is there", arguments: documents)
    func paths(_ document: String) throws {
        for match in try Self.text(of: document).matches(of: Self.path) {
            let path = String(match.1)
            // Patterns and placeholders (`Sources/*/*.docc`, `PREFIX/…`) name no one file.
            guard !path.contains(where: { "*…<{$".contains($0) }) else { continue }
            var file = String(path.prefix { $0 != "#" })
            while let last = file.last, ".,:;)".contains(last) { file.removeLast() }
            #expect(Self.exists(file), "\(document) names \(path), which is not there")
        }
    }

    @Test("the README is a guide: at most 300 lines")
    func readmeIsShort() throws {
        let lines = try Self.text(of: "README.md").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 301, "README.md has \(lines.count - 1) lines; move long notes to Docs/ or Benchmarks/")
    }

    /// The README and OverlayModel once cited "DESIGN §8" and "DESIGN §7", a file never in the
    /// repository; what they cited is in Benchmarks/README.md and Docs/overlay.md.
    @Test("nothing cites a design document the repository does not hold")
    func noDesignCitations() throws {
        var files = Self.documents
        for folder in ["Sources", "Benchmarks", "Schemas"] {
            let enumerator = FileManager.default.enumerator(atPath: Repository.path(folder))
            while let name = enumerator?.nextObject() as? String {
                if name.hasSuffix(".swift") || name.hasSuffix(".c") || name.hasSuffix(".h") || name.hasSuffix(".md") {
                    files.append(folder + "/" + name)
                }
            }
        }
        for file in files {
            let text = try Self.text(of: file)
            #expect(text.firstMatch(of: /DESIGN §/) == nil, "\(file) cites DESIGN §, which is not in the repository")
        }
    }
}
