import Foundation
import Testing

/// What a VT100 emulator (pyte, in Python) shows after some bytes: the check that escape
/// sequences draw what they should, independent of our own parser.
package enum PyteScreen {
    /// Whether `python3` can import pyte (on CI it must: the tests then fail rather than skip).
    package static let isAvailable: Bool = {
        let check = try? CommandRunner.run("/usr/bin/env", ["python3", "-c", "import pyte"])
        return check?.status == 0 || ProcessInfo.processInfo.environment["CI"] != nil
    }()

    /// The rows, trailing blanks removed, of a `columns` × `rows` screen after `bytes`; when
    /// `resizedTo` is given, the screen is then narrowed or widened to that many columns (pyte
    /// does not reflow, like xterm) and `after` is drawn.
    package static func rows(
        after bytes: [UInt8], columns: Int, rows: Int, resizedTo newColumns: Int? = nil, then after: [UInt8] = []
    ) throws -> [String] {
        let folder = try TemporaryFolder()
        let before = folder.url.appendingPathComponent("before")
        let rest = folder.url.appendingPathComponent("after")
        try Data(bytes).write(to: before)
        try Data(after).write(to: rest)
        let script = """
            import pyte, sys
            screen = pyte.Screen(\(columns), \(rows))
            stream = pyte.ByteStream(screen)
            stream.feed(open(sys.argv[1], "rb").read())
            \(newColumns.map { "screen.resize(\(rows), \($0))" } ?? "")
            stream.feed(open(sys.argv[2], "rb").read())
            print("\\n".join(line.rstrip() for line in screen.display))
            """
        let result = try CommandRunner.run("/usr/bin/env", ["python3", "-c", script, before.path, rest.path])
        try #require(result.status == 0, "pyte: \(result.standardError)")
        return result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).prefix(rows)
            .map(String.init)
    }
}
