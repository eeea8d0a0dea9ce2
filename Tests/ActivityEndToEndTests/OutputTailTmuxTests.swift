import Foundation
import TestSupport
import Testing

/// `activity run` keeps the last lines of the command's output and shows them with its failure.
@Suite("activity run: the output tail with a failure", .serialized)
struct OutputTailTmuxTests {
    static var available: Bool {
        TmuxPane.isInstalled
    }

    @Test(
        "output sent to a file: the failure on the terminal shows the command's last 20 lines",
        .enabled(if: available))
    func failureShowsTail() throws {
        let pane = try TmuxPane(width: 80, height: 40)
        let out = pane.folder.url.appendingPathComponent("out").path
        try pane.type(
            "activity run -- sh -c 'for i in $(seq 30); do echo line $i; done; echo oops >&2; exit 1' > '\(out)';"
                + " echo FIN''ISHED")
        #expect(try pane.waitFor("FINISHED"))
        let screen = try pane.screen()
        #expect(screen.contains("✖ sh -c"), "\(screen)")
        #expect(screen.contains("│ line 12\n"), "\(screen)")
        #expect(screen.contains("│ line 30\n"), "\(screen)")
        #expect(screen.contains("│ oops\n"), "\(screen)")
        #expect(!screen.contains("│ line 11\n"), "\(screen)")
        #expect(try String(contentsOfFile: out, encoding: .utf8).hasSuffix("line 29\nline 30\n"))
    }

    @Test(
        "output on the terminal: the lines right above the failure are not printed twice",
        .enabled(if: available))
    func noRepeatOnScreen() throws {
        let pane = try TmuxPane(width: 80, height: 40)
        try pane.type("activity run -- sh -c 'echo first; echo second; exit 1'; echo FIN''ISHED")
        #expect(try pane.waitFor("FINISHED"))
        let screen = try pane.screen()
        #expect(screen.contains("second\n✖ sh -c"), "\(screen)")
        #expect(!screen.contains("│ second"), "\(screen)")
    }
}
