import Foundation
import TestSupport
import Testing

/// The terminal modes a command turns on under `activity run` (on its pseudo-terminal) are off
/// again when it ends or is stopped, and on again after `fg`, as a terminal multiplexer does.
@Suite("activity run: the terminal modes the command turned on, in tmux", .serialized)
struct CommandModesTmuxTests {
    static let available = TmuxPane.isInstalled || ProcessInfo.processInfo.environment["CI"] != nil

    /// tmux's view of the modes: the alternate screen, cursor, mouse tracking, cursor keys, keypad,
    /// SGR mouse, insert, autowrap, origin, the scroll region's rows.
    static let flags =
        "#{alternate_on} #{cursor_flag} #{mouse_any_flag} #{keypad_cursor_flag} #{keypad_flag} "
        + "#{mouse_sgr_flag} #{insert_flag} #{wrap_flag} #{origin_flag} "
        + "#{scroll_region_upper} #{scroll_region_lower}"
    /// A 100×30 pane as a shell leaves it.
    static let off = "0 1 0 0 0 0 0 1 0 0 29"
    /// As `modes` leaves it.
    static let on = "1 0 1 1 1 1 1 0 1 4 9"
    /// The issue's modes (alternate screen, cursor hidden, mouse tracking, cursor keys), and the
    /// keypad, SGR mouse, bracketed paste, insert, no autowrap, origin mode and a scroll region.
    static let modes =
        #"\033[?1049h\033[?25l\033[?1000h\033[?1h\033=\033[?1006h\033[?2004h"#
        + #"\033[4h\033[?7l\033[5;10r\033[?6h"#

    /// A bash script that turns the modes on, waits for `gate`, then exits with 3 without
    /// turning anything off.
    static func script(in pane: TmuxPane, gate: String) throws -> String {
        try pane.folder.file(
            "modes.sh",
            contents: """
                printf '\(modes)'
                i=0
                while [ ! -e '\(gate)' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done
                exit 3
                """
        ).path
    }

    @Test("a command that ends with modes on leaves the terminal as it found it", .enabled(if: available))
    func end() throws {
        let pane = try TmuxPane.bash(width: 100, height: 30)
        let gate = pane.folder.url.appendingPathComponent("gate").path
        #expect(pane.display(Self.flags) == Self.off)
        try pane.type("activity run -- bash '\(try Self.script(in: pane, gate: gate))'; echo status=$?")
        #expect(pane.waitFor(format: Self.flags, toBe: Self.on), "the modes never reached the terminal")
        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        try pane.wait(for: "status=3")
        #expect(pane.display(Self.flags) == Self.off)
    }

    @Test("Ctrl-Z turns the command's modes off for the shell; fg turns them on again", .enabled(if: available))
    func suspend() throws {
        let pane = try TmuxPane.bash(width: 100, height: 30)
        let gate = pane.folder.url.appendingPathComponent("gate").path
        try pane.type("activity run -- bash '\(try Self.script(in: pane, gate: gate))'")
        #expect(pane.waitFor(format: Self.flags, toBe: Self.on), "the modes never reached the terminal")
        try pane.suspendJob()
        #expect(pane.display(Self.flags) == Self.off, "the shell got the command's modes")
        try pane.type("fg; echo status=$?")
        #expect(pane.waitFor(format: Self.flags, toBe: Self.on), "fg did not turn the modes on again")
        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        try pane.wait(for: "status=3")
        #expect(pane.display(Self.flags) == Self.off)
    }
}
