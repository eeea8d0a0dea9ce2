import Foundation
import Testing

/// The fenced code blocks of a Markdown file, each with the marker comment on the line before it.
///
/// A block a reader would run (one tagged `sh`, `python`, `swift`, `c` or `rust`) carries one of:
///
/// - `<!-- run: COMMAND -->`: the test runs COMMAND with `sh -e` in an empty folder, the block's
///   text in the file `$BLOCK`;
/// - `<!-- run python: PRELUDE -->`: the test runs PRELUDE (statements that stand in for what the
///   block leaves undefined) followed by the block, with `python3`;
/// - `<!-- illustration: REASON -->`: the block is not run, for the reason given.
struct MarkdownCodeBlock: CustomTestStringConvertible, Sendable {
    enum Marker: Equatable, Sendable {
        case run(String)
        case runPython(prelude: String)
        case illustration(reason: String)
    }

    var file: String
    /// The line of the opening fence, from 1.
    var line: Int
    var language: String
    var text: String
    var marker: Marker?

    var testDescription: String { "\(file):\(line) (\(language))" }

    /// The languages of blocks a reader would run, which need a marker.
    static let runnable: Set<String> = ["sh", "python", "swift", "c", "rust"]

    static func blocks(in relativePath: String, root: URL) throws -> [MarkdownCodeBlock] {
        let content = try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
        let lines = content.components(separatedBy: "\n")
        var blocks: [MarkdownCodeBlock] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix("```") else {
                index += 1
                continue
            }
            let language = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            let start = index
            index += 1
            var body: [String] = []
            while index < lines.count && !lines[index].hasPrefix("```") {
                body.append(lines[index])
                index += 1
            }
            index += 1
            let marker = start > 0 ? Self.marker(lines[start - 1]) : nil
            blocks.append(
                MarkdownCodeBlock(
                    file: relativePath, line: start + 1, language: language,
                    text: body.joined(separator: "\n") + "\n", marker: marker))
        }
        return blocks
    }

    private static func marker(_ line: String) -> Marker? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("<!--"), trimmed.hasSuffix("-->") else { return nil }
        let inside = trimmed.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
        for (prefix, make) in [
            ("run python:", { Marker.runPython(prelude: $0) }),
            ("run:", { Marker.run($0) }),
            ("illustration:", { Marker.illustration(reason: $0) }),
        ] as [(String, (String) -> Marker)] where inside.hasPrefix(prefix) {
            return make(inside.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
