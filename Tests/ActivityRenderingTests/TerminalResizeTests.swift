import ActivityRendering
import Foundation
import Testing

/// What the renderer writes when the terminal gets narrower, and what a terminal that does not
/// reflow (pyte, like xterm) then shows.
@Suite("Resizes")
struct TerminalResizeTests {
    /// Two activities whose rows fill a 100-column line, drawn at 100 columns at time 1.
    func wideFrame() -> TerminalHarness {
        let h = TerminalHarness(columns: 100, rows: 12)
        h.send(
            E.begin(
                "a", "Rendering the documentation", total: 100, message: "Sources/ActivityRendering/Renderers", at: 0),
            E.begin("b", "Indexing every symbol", total: 100, message: "Sources/ActivityTerminal/Capabilities", at: 0),
            E.progress("a", 40, at: 1), E.progress("b", 75, at: 1))
        h.frame(at: 1, "100 columns")
        return h
    }

    @Test("a shrink: up by the rows the old lines take when reflowed, erase, redraw without autowrap")
    func shrinkBytes() {
        let h = wideFrame()
        let widths = h.buffer.writes.count
        h.resize(columns: 50, rows: 12)
        h.frame(at: 1.05, "50 columns")
        let frame = String(decoding: h.buffer.writes[widths], as: UTF8.self)
        // Header (short: one row) and two rows of 99 columns (two rows each at 50): up 5.
        let expected =
            "\u{1B}[?2026h\r\u{1B}[5A\u{1B}[?7l"
            + "\u{1B}[K⠸ 2 running · 0/2 done · 1.1s\r\n"
            + "\u{1B}[K⠸ Rendering the do…  ████░░░░░░   40%  1.1s\r\n"
            + "\u{1B}[K⠸ Indexing every s…  ███████▌░░   75%  1.1s\r\n"
            + "\u{1B}[?7h\u{1B}[J\u{1B}[?2026l"
        #expect(frame == expected)
        #expect(h.frameProblems.isEmpty)
    }

    static let pyteAvailable: Bool = {
        let check = Process()
        check.executableURL = URL(filePath: "/usr/bin/env")
        check.arguments = ["python3", "-c", "import pyte"]
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return false }
        check.waitUntilExit()
        return check.terminationStatus == 0 || ProcessInfo.processInfo.environment["CI"] != nil
    }()

    /// The rows pyte shows after `before` at `columns`, a resize to `newColumns`, then `after`.
    static func emulate(
        _ before: [UInt8], columns: Int, rows: Int, resizedTo newColumns: Int, then after: [UInt8]
    )
        throws -> [String]
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pyte-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(before).write(to: folder.appendingPathComponent("before"))
        try Data(after).write(to: folder.appendingPathComponent("after"))
        let script = """
            import pyte, sys
            screen = pyte.Screen(\(columns), \(rows))
            stream = pyte.ByteStream(screen)
            stream.feed(open(sys.argv[1], "rb").read())
            screen.resize(\(rows), \(newColumns))
            stream.feed(open(sys.argv[2], "rb").read())
            print("\\n".join(line.rstrip() for line in screen.display))
            """
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c", script, folder.appendingPathComponent("before").path,
            folder.appendingPathComponent("after").path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .prefix(rows).map(String.init)
    }

    @Test(
        "a terminal that does not reflow shows exactly the new frame after a shrink",
        .enabled(if: pyteAvailable, "pyte is not installed (pip install pyte)"))
    func nonReflowingTerminal() throws {
        let h = wideFrame()
        let before = h.buffer.writes.flatMap { $0 }
        let drawn = h.buffer.writes.count
        h.resize(columns: 50, rows: 12)
        h.frame(at: 1.05, "50 columns")
        let after = h.buffer.writes[drawn...].flatMap { $0 }
        let screen = try Self.emulate(before, columns: 100, rows: 12, resizedTo: 50, then: after)
        let expected = [
            "⠸ 2 running · 0/2 done · 1.1s",
            "⠸ Rendering the do…  ████░░░░░░   40%  1.1s",
            "⠸ Indexing every s…  ███████▌░░   75%  1.1s",
        ]
        #expect(Array(screen.prefix(3)) == expected)
        let rest = screen.dropFirst(3)
        #expect(rest.allSatisfy { $0.isEmpty }, "rows left from the old frame:\n\(screen.joined(separator: "\n"))")
    }
}
