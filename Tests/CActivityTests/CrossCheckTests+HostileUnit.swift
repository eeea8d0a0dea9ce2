import ActivityWire
import CActivity
import Foundation
import TestSupport
import Testing

/// A unit with escape sequences, given to libactivity, is written JSON-escaped as it was given,
/// never raw; RenderTests.hostileUnit shows `activity render` displays that line sanitized. (In the
/// serialized suite: the sink is the process's.)
extension CrossCheckTests {
    @Test("activity_begin(NULL, \"T\", 10, \"files\\x1b]0;PWNED\\x07\"): the unit is written escaped, as given")
    func hostileUnit() throws {
        let folder = try TemporaryFolder()
        let events = folder.url.appending(path: "events.jsonl")
        #expect(activity_set_sink("file:\(events.path)") == 0)
        let unit = "files\u{1B}]0;PWNED\u{07}\u{1B}[2J"
        let activity = activity_begin(nil, "T", 10, unit)
        activity_advance(activity, 5)
        #expect(activity_end(activity, ACTIVITY_STATUS_SUCCESS, nil) == 0)
        #expect(activity_flush(2000) == 0)
        #expect(activity_set_sink("none") == 0)
        let bytes = try [UInt8](Data(contentsOf: events))
        #expect(!bytes.contains(0x1B) && !bytes.contains(0x07), "a control byte was written raw")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#""unit":"files\u001b]0;PWNED\u0007\u001b[2J""#), "\(text)")
        let report = try Support.check(bytes)
        #expect(report.isClean, "\(report.summary)")
        let units = report.events.compactMap { event -> String? in
            if case .begin(let begin) = event { begin.unit } else { nil }
        }
        #expect(units == [unit])
    }
}
