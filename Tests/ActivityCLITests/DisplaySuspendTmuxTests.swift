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
        let gate = folder.url.appendingPathComponent("gate").path
        let producer = try folder.file(
            "producer.sh",
            contents: """
                #!/bin/bash
                echo '{"v":1,"type":"begin","id":"a","title":"Copying files","total":10}'
                i=0
                while [ ! -e '\(gate)' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done
                echo '{"v":1,"type":"end","id":"a"}'
                """, executable: true)
        let tmux = try TmuxPane(
            width: 72, height: 16,
            command: [
                "env", "PATH=\(CommandRunner.path)", "LANG=C.UTF-8", "PS1=$ ", "bash", "--norc", "--noprofile", "-i",
            ])
        defer { withExtendedLifetime(folder) {} }
        try tmux.wait(for: "$")
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
