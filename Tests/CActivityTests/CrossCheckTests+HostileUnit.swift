import CActivity
import Foundation
import TestSupport
import Testing

/// A unit with escape sequences, given to libactivity, never reaches a terminal raw: the C
/// library writes it (JSON-escaped) as it was given, and `activity render` shows it sanitized.
/// (In the serialized suite: the sink is the process's.)
extension CrossCheckTests {
    @Test("activity_begin(NULL, \"T\", 10, \"files\\x1b]0;PWNED\\x07\"): no escape reaches the display")
    func hostileUnit() throws {
        let folder = try TemporaryFolder()
        let events = folder.url.appending(path: "events.jsonl")
        #expect(activity_set_sink("file:\(events.path)") == 0)
        let activity = activity_begin(nil, "T", 10, "files\u{1B}]0;PWNED\u{07}\u{1B}[2J")
        activity_advance(activity, 5)
        #expect(activity_end(activity, ACTIVITY_STATUS_SUCCESS, nil) == 0)
        #expect(activity_flush(2000) == 0)
        #expect(activity_set_sink("none") == 0)
        let binary = LibactivityBuild.buildArea.deletingLastPathComponent().appending(path: "activity").path
        for mode in ["plain", "tty"] {
            let shown = try LibactivityBuild.run(binary, ["render", "--mode", mode, events.path])
            #expect(shown.status == 0, "\(shown.combined)")
            if mode == "plain" { #expect(shown.error.contains("(10 files"), "the unit is not shown: \(shown.error)") }
            #expect(!shown.error.contains("PWNED"), "--mode \(mode): \(shown.error.debugDescription)")
            #expect(
                !shown.error.contains("\u{1B}]0") && !shown.error.contains("\u{1B}[2J"),
                "\(shown.error.debugDescription)")
        }
    }
}
