import Foundation
import TestSupport
import Testing

/// `activity run` on a terminal gives the command a pseudo-terminal of its own: the command
/// behaves as it would bare (colours, line buffering, prompts, full-screen programs, job control,
/// resizes), and only the progress display is added. Each test types into a real shell in tmux.
@Suite("activity run on a pseudo-terminal", .serialized)
struct PseudoTerminalRunTests {
    static var available: Bool {
        TmuxPane.isInstalled
    }

    /// A file in the pane's folder that a command waits for, so the test decides when it goes on.
    func gate(_ pane: TmuxPane, _ name: String = "gate") -> String {
        pane.folder.url.appendingPathComponent(name).path
    }

    func open(_ path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
    }

    /// A shell loop that waits (at most 30 s) for `path` to exist.
    func waitLoop(_ path: String) -> String {
        "i=0; while [ ! -e '\(path)' ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done"
    }

    @Test(
        "the command sees a terminal on its output, input and error; --no-pty and a redirection give pipes",
        .enabled(if: available))
    func seesTerminal() throws {
        let pane = try TmuxPane()
        try pane.type(
            #"activity run -- sh -c 'for fd in 0 1 2; do [ -t $fd ] && echo "fd $fd tty" || echo "fd $fd not"; done'"#)
        #expect(try pane.waitFor("fd 2 tty"))
        #expect(try pane.screen().contains("fd 0 tty"))
        #expect(try pane.screen().contains("fd 1 tty"))
        try pane.type("clear; activity run --no-pty -- sh -c '[ -t 1 ] && echo one-tty || echo one-pipe'")
        #expect(try pane.waitFor("one-pipe"))
        let out = pane.folder.url.appendingPathComponent("out").path
        try pane.type(
            "clear; activity run -- sh -c '[ -t 1 ] && echo two-tty || echo two-pipe' > '\(out)'; cat '\(out)'")
        #expect(try pane.waitFor("two-pipe"))
    }

    /// Also under an adapter (pip asks `Proceed (Y/n)? ` under `pip uninstall`), which holds an
    /// unfinished line until it ends, in case it is progress: it used to hold the prompt until
    /// the answer's Enter.
    @Test(
        "a prompt without a newline shows before any key; the answer is echoed once, in order",
        .enabled(if: available), arguments: ["", "--adapter pip ", "--adapter tqdm "])
    func prompt(adapter: String) throws {
        let pane = try TmuxPane()
        // The prompt is built by the shell, so the typed command line does not hold it.
        try pane.type(#"activity run \#(adapter)-- bash -c 'read -p "Cont""inue? [Y/n] " x; echo "got $x"'"#)
        // (capture-pane drops the trailing blank.)
        #expect(try pane.waitFor("Continue? [Y/n]"))
        try pane.tmux(["send-keys", "-l", "yes"])
        #expect(try pane.waitFor("Continue? [Y/n] yes"))
        try pane.press("Enter")
        #expect(try pane.waitFor("got yes"))
        #expect(try pane.waitFor("✔ bash"))
        let screen = try pane.screen()
        let lines = screen.split(separator: "\n")
        let prompt = try #require(lines.firstIndex { $0.hasPrefix("Continue? [Y/n] yes") })
        let answer = try #require(lines.firstIndex { $0 == "got yes" })
        #expect(prompt < answer, "the answer came before the prompt:\n\(screen)")
        #expect(screen.components(separatedBy: "yes").count == 3, "the answer is shown more than once:\n\(screen)")
    }

    @Test(
        "the command is in the foreground from its first instruction (wget would write to wget-log)",
        .enabled(if: available))
    func foregroundFromTheStart() throws {
        let pane = try TmuxPane()
        // A program that asks at once, as wget does, whether its process group owns the terminal.
        let source = try pane.folder.file(
            "check.c",
            contents: """
                #include <stdio.h>
                #include <unistd.h>
                int main(int argc, char **argv) {
                    FILE *log = fopen(argv[1], "a");
                    fputs(tcgetpgrp(2) == getpgrp() ? "foreground\\n" : "background\\n", log);
                    return fclose(log);
                }

                """)
        let check = pane.folder.url.appendingPathComponent("check").path
        let compiled = try CommandRunner.run("/usr/bin/env", ["gcc", "-o", check, source.path])
        try #require(compiled.status == 0, "\(compiled.standardError)")
        let log = pane.folder.url.appendingPathComponent("log").path
        // The window it could fall into was about a millisecond wide: 40 starts found it.
        try pane.type("i=0; while [ $i -lt 40 ]; do activity run -- '\(check)' '\(log)'; i=$((i+1)); done; echo DO''NE")
        #expect(try pane.waitFor("DONE", timeout: 120))
        let answers = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(answers.count == 40)
        #expect(
            answers.allSatisfy { $0 == "foreground" },
            "\(answers.filter { $0 != "foreground" }.count) of 40 in the background")
    }

    @Test("ls --color=auto keeps its colours", .enabled(if: available))
    func colours() throws {
        let pane = try TmuxPane()
        try FileManager.default.createDirectory(
            at: pane.folder.url.appendingPathComponent("a-directory"), withIntermediateDirectories: true)
        try pane.type("cd '\(pane.folder.url.path)' && activity run -- ls --color=auto")
        #expect(try pane.waitFor("✔ ls"))
        let screen = try pane.screenWithAttributes()
        // A directory in bold blue (01;34) as ls paints it on a terminal.
        #expect(screen.contains("\u{1B}[1m\u{1B}[34ma-directory"), "\(screen.debugDescription)")
    }

    @Test("tabs keep their columns on the terminal, under run and render", .enabled(if: available))
    func tabs() throws {
        let pane = try TmuxPane()
        try pane.type(
            #"activity run -- printf 'x\tcol2\tcol3\nlonger\tc2\tc3\n'; printf 'y\tz\n' | activity render"#)
        #expect(try pane.waitFor("✔ printf"))
        #expect(try pane.waitFor("y       z"))
        let screen = try pane.screen()
        #expect(screen.contains("x       col2    col3\nlonger  c2      c3"), "\(screen)")
    }

    /// The pseudo-terminal path looked the command up on its own, for executable files only, and
    /// said "command not found" (127) where the pipes said "cannot execute" (126).
    @Test(
        "a command that is a file without execute permission cannot execute (126), as on pipes",
        .enabled(if: available))
    func notExecutable() throws {
        let pane = try TmuxPane()
        _ = try pane.folder.file("not-runnable", contents: "echo never\n")
        try pane.type("PATH='\(pane.folder.url.path)':$PATH activity run -- not-runnable; echo status=$?")
        #expect(try pane.waitFor("status=126"))
        let screen = try pane.screen()
        #expect(screen.contains("not-runnable: cannot execute: Permission denied"), "\(screen)")
        #expect(!screen.contains("never"))
    }

    @Test(
        "a run started in the background prints plain lines, never a live region over the shell",
        .enabled(if: available))
    func background() throws {
        let pane = try TmuxPane()
        try pane.type("activity run -- echo hi & wait; echo FIN''ISHED")
        #expect(try pane.waitFor("FINISHED"))
        let screen = try pane.screen()
        #expect(screen.contains("] ▶ echo hi") && screen.contains("] ✔ echo hi"), "\(screen)")
    }

    @Test(
        "a program that buffers on a pipe (Python without -u) shows each line before it sleeps", .enabled(if: available)
    )
    func lineBuffered() throws {
        let pane = try TmuxPane()
        let gate = gate(pane)
        try pane.type(
            "env -u PYTHONUNBUFFERED activity run -- python3 -c \"import os, time\nprint('first', 'line')\n"
                + "while not os.path.exists('\(gate)'): time.sleep(0.05)\nprint('second', 'line')\"")
        #expect(try pane.waitFor("first line"), "the line waited in Python's buffer")
        #expect(try !pane.screen().contains("second line"))
        open(gate)
        #expect(try pane.waitFor("second line"))
    }

    @Test("a \\r progress loop is one changing status, not hundreds of lines", .enabled(if: available))
    func carriageReturnStatus() throws {
        let pane = try TmuxPane()
        let gate = gate(pane)
        try pane.type(
            "activity run -- sh -c 'for i in $(seq 1 300); do printf \"\\r%d%%\" $i; done; \(waitLoop(gate)); echo; echo done'"
        )
        #expect(try pane.waitFor("300%"))
        let during = try pane.screen()
        // The status is the command's activity's message, on its line of the live region.
        #expect(
            during.split(separator: "\n").contains { $0.contains("sh -c") && $0.hasSuffix("300%") },
            "the status is not in the live region:\n\(during)")
        open(gate)
        #expect(try pane.waitFor("✔ sh -c"))
        let after = try pane.screen()
        let percentLines = after.split(separator: "\n").filter { $0.hasSuffix("%") }
        #expect(percentLines == ["300%"], "\(after)")
        #expect(after.contains("done"))
    }

    @Test(
        "less shows a file on the alternate screen, quits with q, and the display comes back", .enabled(if: available))
    func fullScreen() throws {
        let pane = try TmuxPane()
        let file = pane.folder.url.appendingPathComponent("notes.txt")
        try (1...200).map { "note number \($0)" }.joined(separator: "\n").write(
            to: file, atomically: true, encoding: .utf8)
        try pane.type("echo before; activity run -- less '\(file.path)'")
        let shown = try pane.waitFor("note number 1")
        #expect(shown, "\((try? pane.screen()) ?? "")")
        #expect(try !pane.screen().contains("before"), "less is not on the alternate screen")
        try pane.press("q")
        #expect(try pane.waitFor("✔ less"))
        let screen = try pane.screen()
        #expect(screen.contains("before"))
        #expect(!screen.contains("note number 1\n"), "less's page was left on the main screen")
    }

    @Test(
        "Ctrl-Z stops the command and activity; fg brings both back; the terminal is cooked meanwhile",
        .enabled(if: available))
    func jobControl() throws {
        let pane = try TmuxPane()
        let gate = gate(pane)
        // bash, not sh: dash runs `sleep` with vfork, and a Ctrl-Z that lands between the vfork and
        // the exec stops the child while the shell waits for it, uninterruptibly, for ever: the
        // job never stops (dash's own bug, which `activity` cannot undo).
        try pane.type("activity run -- bash -c 'echo sta\"\"rted; \(waitLoop(gate)); echo resumed-and-done'")
        #expect(try pane.waitFor("started"))
        try pane.suspendJob()
        try pane.type(
            "stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e -echo -e icanon -e -icanon -e opost -e -opost;"
                + " echo modes-$((2*3))")
        #expect(try pane.waitFor("modes-6"))
        let modes = try pane.screen().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(modes.contains("echo") && modes.contains("icanon"), "the terminal was left raw while stopped")
        #expect(modes.contains("opost"), "the terminal's output processing was left off while stopped")
        try pane.type("fg")
        open(gate)
        #expect(try pane.waitFor("resumed-and-done"))
        #expect(try pane.waitFor("✔ bash -c"))
    }

    @Test("Ctrl-C reaches the command through its terminal: killed by SIGINT, 130", .enabled(if: available))
    func interrupt() throws {
        let pane = try TmuxPane()
        try pane.type("activity run -- sh -c 'echo sta\"\"rted; exec sleep 30'")
        #expect(try pane.waitFor("started"))
        try pane.press("C-c")
        try pane.waitForLastLine("$")
        try pane.type("echo status=$?")
        #expect(try pane.waitFor("status=130"))
        #expect(try pane.screen().contains("killed by SIGINT"))
    }

    @Test(
        "Ctrl-C stops a shell loop around activity run, as without it: run ends by SIGINT, not exit 130",
        .enabled(if: available))
    func interruptLoop() throws {
        // bash ends a loop when its child died of SIGINT, and goes on when one exited 130.
        let pane = try TmuxPane.bash(width: 100, height: 24)
        try pane.type(
            "for i in 1 2; do activity run --no-history -- sh -c 'echo sta\"\"rted; exec sleep 30'; "
                + "echo after-$i; done; echo loop-en\"\"ded")
        #expect(try pane.waitFor("started"))
        try pane.press("C-c")
        let screen = try pane.waitForScreen { screen in
            screen.contains("after-1") || screen.split(separator: "\n").last == "$"
        }
        #expect(screen.contains("killed by SIGINT"))
        #expect(!screen.contains("after-1") && !screen.contains("loop-ended"), "the loop went on:\n\(screen)")
    }

    @Test(
        "line editing in a shell under run: a backspace and Ctrl-U redraw the prompt's line in place, cursor shown",
        .enabled(if: available))
    func lineEditing() throws {
        let pane = try TmuxPane()
        try pane.type("PS1='IN> ' activity run --no-history -- bash --norc --noprofile -i")
        try pane.waitForLastLine("IN>")
        try pane.tmux(["send-keys", "-l", "echo abc"])
        try pane.waitForLastLine("IN> echo abc")
        try pane.press("BSpace")
        // readline echoes `\b CSI K`: the line loses its c on the screen, where it is.
        try pane.waitForLastLine("IN> echo ab")
        #expect(pane.cursorVisible, "the prompt's line has no cursor")
        try pane.press("C-u")
        // readline redraws with `\r`, moves right over the prompt and erases the rest.
        let cleared = try pane.waitForLastLine("IN>")
        #expect(!cleared.contains("echo ab"), "the line typed before Ctrl-U is still shown:\n\(cleared)")
        #expect(pane.cursorVisible)
        try pane.type("echo for\"\"ty-two")
        #expect(try pane.waitFor("forty-two\nIN>"))
        try pane.type("exit")
        #expect(try pane.waitFor("✔ bash"))
    }

    @Test("a resize reaches the command: tput cols inside reports the new width", .enabled(if: available))
    func resize() throws {
        let pane = try TmuxPane(width: 100, height: 24)
        // The command waits (at most 30 s) until its terminal is 72 columns wide, then says so.
        try pane.type(
            "activity run -- sh -c 'echo cols=$(tput cols); i=0; "
                + "while [ \"$(tput cols)\" != 72 ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done; "
                + "echo now=$(tput cols)'")
        #expect(try pane.waitFor("cols=100"))
        try pane.resize(width: 72, height: 24)
        #expect(try pane.waitFor("now=72", timeout: 40))
    }

    /// The display ends every line it writes with "\r\n", so the terminal's output processing is
    /// off while it draws: the kernel passes each write whole instead of handling every line feed
    /// on its own (on a pseudo-terminal, a push to its reader for each line), and a row arrives
    /// as "row\r\n", not "row\r\r\n". The processing is on again once the run is over.
    @Test("the command's rows reach the terminal as they are, each ending in one \\r\\n; settings restored after")
    func rowsWrittenWhole() throws {
        let result = try Python.run(
            "pty_run_output.py", [CommandRunner.activity, "sh", "-c", "for i in 1 2 3 4 5; do echo \"row $i\"; done"])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("rows: 5\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("after: opost\n"), "\(result.standardOutput)")
    }
}
