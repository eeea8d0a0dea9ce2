import Foundation
import TestSupport
import Testing

@Suite("The TTY display and Ctrl-Z, in tmux", .serialized)
struct DisplaySuspendTmuxTests {
    static let available = TmuxPane.isInstalled || ProcessInfo.processInfo.environment["CI"] != nil

    @Test(
        "Ctrl-Z under render leaves the shell a visible cursor; fg draws the region again, the end shows it",
        .enabled(if: available, "tmux is missing"))
    func suspend() throws {
        let folder = try TemporaryFolder()
        let (producer, gate) = try folder.gatedProducer(
            begin: #"{"v":1,"type":"begin","id":"a","title":"Copying files","total":10}"#,
            end: #"{"v":1,"type":"end","id":"a"}"#)
        let tmux = try TmuxPane.bash(width: 72, height: 16)
        defer { withExtendedLifetime(folder) {} }
        try tmux.press("'\(producer.path)' | activity render --summary off", "Enter")
        try tmux.wait(for: "Copying files")
        #expect(tmux.waitForCursor(visible: false), "the live region hides the cursor")
        try tmux.suspendJob()
        #expect(tmux.cursorVisible, "the shell's prompt has no cursor while the job is stopped")
        try tmux.press("fg", "Enter")
        #expect(tmux.waitForCursor(visible: false), "fg did not take the terminal again")
        let resumed = try tmux.waitForScreen { screen in
            let lines = screen.split(separator: "\n")
            guard let fg = lines.lastIndex(where: { $0.hasSuffix("$ fg") }) else { return false }
            return lines[(fg + 1)...].contains { $0.contains("Copying files") }
        }
        #expect(resumed.contains("Stopped"))
        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        try tmux.wait(for: "✔ Copying files")
        #expect(tmux.waitForCursor(visible: true))
    }
}
