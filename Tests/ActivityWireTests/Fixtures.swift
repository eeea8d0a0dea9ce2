import ActivityWire
import Foundation

/// The conformance fixtures under `Schemas/examples`, shared with the C tests and the schema check.
enum Fixtures {
    static let schemas = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Schemas")

    static let valid = schemas.appending(path: "examples/valid")
    static let invalid = schemas.appending(path: "examples/invalid")

    struct Expected: Hashable, CustomStringConvertible {
        var line: Int
        var code: String
        var description: String { "\(line) \(code)" }
    }

    /// The `.jsonl` files of a fixture folder, sorted by name.
    static func streams(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { folder.appending(path: $0) }
    }

    /// The diagnostics listed beside a fixture (`name.expected`: `LINE CODE` per line), or none.
    static func expected(for stream: URL) -> [Expected] {
        let path = stream.deletingPathExtension().appendingPathExtension("expected")
        guard let text = try? String(contentsOf: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            let parts = $0.split(separator: " ")
            return Expected(line: Int(parts[0])!, code: String(parts[1]))
        }
    }

    /// Everything the decoder and the validator report for a stream, read in chunks of `chunkSize`.
    static func diagnostics(of bytes: [UInt8], chunkSize: Int = 1 << 16) throws -> [Diagnostic] {
        var reader = EventStreamReader(source: BytesSource(bytes, chunkSize: chunkSize))
        var validator = StreamValidator()
        var result: [Diagnostic] = []
        var lastLine = 0
        try reader.forEach { item in
            guard item.isLineStart else { return }
            lastLine = item.line
            if let diagnostic = item.decoded.diagnostic { result.append(diagnostic) }
            if let event = item.decoded.event { result += validator.check(event, line: item.line) }
        }
        result += validator.finish(atLine: lastLine)
        return result
    }
}
