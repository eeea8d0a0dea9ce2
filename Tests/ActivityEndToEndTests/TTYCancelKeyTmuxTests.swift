import Foundation
import TestSupport
import Testing

/// Esc in `activity run`'s TTY display, in a real terminal: the cancel reaches the script that
/// began the activity (its chosen signal), once; the command goes on; the terminal is left as it
/// was found.
@Suite("activity run --mode tty: Esc cancels", .serialized)
struct TTYCancelKeyTmuxTests {
    static var available: Bool {
        TmuxPane.isInstalled
    }

    /// A script that begins a cancellable activity, counts the cancels it receives (SIGUSR1),
    /// and, once cancelled, waits for `gate` before it ends the activity `cancelled` and goes on.
    /// With `rawRead`, it first turns its terminal's line mode off and reads one key.
    func script(in pane: TmuxPane, gate: String, rawRead: Bool = false) throws -> String {
        let path = pane.folder.url.appendingPathComponent("cancellable.sh").path
        // Echo off too: an echoed Esc would start an escape sequence on the screen.
        let read =
            rawRead
            ? "stty -icanon -echo min 1; echo rea\"\"dy; key=$(dd bs=1 count=1 2>/dev/null | od -An -c); "
                + "stty icanon echo; echo \"key:$key\"" : ""
        try """
        cancels=0
        trap 'cancels=$((cancels+1))' USR1
        id=$(activity emit begin "Waiting for Cancel" --cancel-signal USR1)
        \(read)
        i=0
        while [ "$cancels" = 0 ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done
        j=0
        while [ ! -e '\(gate)' ] && [ $j -lt 600 ]; do sleep 0.05; j=$((j+1)); done
        if [ "$cancels" -gt 0 ]; then
            activity emit end "$id" --status cancelled
        else
            activity emit end "$id"
        fi
        echo "went on, cancels=$cancels"
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(
        "Esc ends the activity cancelled, once however often pressed; the command goes on to exit 0",
        .enabled(if: available))
    func escCancels() throws {
        let pane = try TmuxPane()
        let gate = pane.folder.url.appendingPathComponent("gate").path
        let script = try script(in: pane, gate: gate)
        try pane.type("activity run -- sh '\(script)'; echo status=$?")
        #expect(try pane.waitFor("Esc cancels Waiting for Cancel"))
        try pane.press("Escape")
        #expect(try pane.waitFor("cancelling Waiting for Cancel"))
        for _ in 0..<3 { try pane.press("Escape") }
        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        #expect(try pane.waitFor("status=0"))
        let screen = try pane.screen()
        #expect(screen.contains("cancels=1"), "\(screen)")
        #expect(screen.contains("⊘ Waiting for Cancel"), "\(screen)")
        #expect(!screen.contains("cancelling"), "\(screen)")
    }

    @Test(
        "while the command reads its terminal key by key, Esc is its own and no cancel is offered",
        .enabled(if: available))
    func escToCommandOutOfLineMode() throws {
        let pane = try TmuxPane()
        let gate = pane.folder.url.appendingPathComponent("gate").path
        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        let script = try script(in: pane, gate: gate, rawRead: true)
        try pane.type("activity run -- sh '\(script)'; echo status=$?")
        #expect(try pane.waitFor("ready"))
        // The offer follows the terminal's mode within a tenth of a second; the key itself is
        // judged by the mode at the moment it arrives.
        #expect(try waitForAbsence(of: "Esc cancels", in: pane))
        try pane.press("Escape")
        #expect(try pane.waitFor("key:"))
        #expect(try pane.screen().contains("033"), "\((try? pane.screen()) ?? "")")
        // Back in line mode, the key is offered; Esc cancels.
        #expect(try pane.waitFor("Esc cancels Waiting for Cancel"))
        try pane.press("Escape")
        #expect(try pane.waitFor("status=0"))
        #expect(try pane.screen().contains("cancels=1"), "\((try? pane.screen()) ?? "")")
    }

    /// Waits until the screen no longer contains `text`, for at most a minute.
    func waitForAbsence(of text: String, in pane: TmuxPane) throws -> Bool {
        try pane.screen(when: { !$0.contains(text) }) != nil
    }

    @Test(
        "after Esc, Ctrl-Z and fg, and Ctrl-C, the terminal's settings are exactly as before",
        .enabled(if: available))
    func terminalAsBefore() throws {
        let pane = try TmuxPane()
        let gate = pane.folder.url.appendingPathComponent("gate").path
        let script = try script(in: pane, gate: gate)
        let before = pane.folder.url.appendingPathComponent("before").path
        let after = pane.folder.url.appendingPathComponent("after").path
        // (No status after it: the shell moves on when the job stops.) bash, not sh: a Ctrl-Z
        // between dash's vfork of `sleep` and its exec would leave the job running for ever.
        try pane.type("stty -a > '\(before)'; activity run -- bash '\(script)'")
        #expect(try pane.waitFor("Esc cancels Waiting for Cancel"))
        try pane.suspendJob()
        try pane.type("clear; fg")
        // Raw again after fg: Esc is still taken by the display, not echoed by the shell's terminal.
        #expect(try pane.waitFor("Esc cancels Waiting for Cancel"))
        try pane.press("Escape")
        #expect(try pane.waitFor("cancelling Waiting for Cancel"))
        try pane.press("C-c")
        #expect(try pane.waitFor("killed by SIGINT"))
        try pane.type("stty -a > '\(after)'; cmp '\(before)' '\(after)' && echo SA''ME")
        #expect(try pane.waitFor("SAME"), "\((try? pane.screen()) ?? "")")
        let settings = try String(contentsOfFile: after, encoding: .utf8)
        #expect(settings.contains(" echo ") && settings.contains(" icanon "), "\(settings)")
    }
}
