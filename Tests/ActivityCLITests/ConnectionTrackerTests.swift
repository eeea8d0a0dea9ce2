import ActivityWire
import Testing

@testable import ActivityCLI

@Suite("Connection tracking under activity run")
struct ConnectionTrackerTests {
    func feed(_ tracker: inout ConnectionTracker, _ lines: [String], from fd: Int32) -> [ConnectionTracker.Output] {
        Array(lines.map { $0 + "\n" }.joined().utf8).withUnsafeBytes { tracker.receive($0, from: fd) }
    }

    func codes(_ outputs: [ConnectionTracker.Output]) -> [Diagnostic.Code] {
        outputs.compactMap { if case .diagnostic(let d) = $0 { d.code } else { nil } }
    }

    func events(_ outputs: [ConnectionTracker.Output]) -> [ActivityEvent] {
        outputs.compactMap { if case .event(let e) = $0 { e } else { nil } }
    }

    @Test("a reporter cannot change or end another reporter's activity, nor the run's own")
    func trustRule() {
        let root = ActivityID("root")!
        var tracker = ConnectionTracker(root: root)
        tracker.open(5)
        tracker.open(6)
        _ = feed(&tracker, [#"{"v":1,"type":"begin","id":"a","title":"A"}"#], from: 5)
        let foreign = feed(
            &tracker,
            [
                #"{"v":1,"type":"progress","id":"a","completed":3}"#, #"{"v":1,"type":"end","id":"a"}"#,
                #"{"v":1,"type":"progress","id":"root","message":"hijacked"}"#,
                #"{"v":1,"type":"end","id":"root","status":"failure"}"#,
                #"{"v":1,"type":"begin","id":"root","title":"again"}"#,
            ], from: 6)
        #expect(events(foreign).isEmpty)
        #expect(codes(foreign) == Array(repeating: .notOwner, count: 5))
        // The owner still may, and its activity is still its own when it goes away.
        let own = feed(&tracker, [#"{"v":1,"type":"progress","id":"a","completed":4}"#], from: 5)
        #expect(events(own).count == 1)
        #expect(events(tracker.close(5)).count == 1)
    }

    @Test("any connection may end what activity emit began: each emit is a connection of its own")
    func emitOwned() {
        var tracker = ConnectionTracker(root: ActivityID("r")!)
        tracker.open(3)
        tracker.open(4)
        _ = feed(
            &tracker, [#"{"v":1,"type":"begin","id":"s","title":"S","attrs":{"x-activity-owner-pid":4242}}"#],
            from: 3)
        _ = tracker.close(3)
        let ended = feed(&tracker, [#"{"v":1,"type":"end","id":"s"}"#], from: 4)
        #expect(codes(ended).isEmpty)
        #expect(events(ended).count == 1)
        #expect(tracker.trackedCount == 0)
    }

    @Test("memory is bounded like the store's: begins past the limit pass on untracked")
    func bounded() {
        var tracker = ConnectionTracker(root: ActivityID("r")!, maxTracked: 100)
        tracker.open(3)
        let begins = (0..<1000).map { #"{"v":1,"type":"begin","id":"b\#($0)","title":"B"}"# }
        let outputs = feed(&tracker, begins, from: 3)
        #expect(events(outputs).count == 1000)
        #expect(tracker.trackedCount == 100)
        #expect(events(tracker.close(3)).count == 100)
        #expect(tracker.trackedCount == 0)
    }

    @Test("begin/end pairs leave nothing tracked behind")
    func pairs() {
        var tracker = ConnectionTracker(root: ActivityID("r")!)
        tracker.open(3)
        var lines: [String] = []
        for index in 0..<40_000 {
            lines.append(#"{"v":1,"type":"begin","id":"p\#(index)","title":"P"}"#)
            lines.append(#"{"v":1,"type":"end","id":"p\#(index)"}"#)
        }
        let outputs = feed(&tracker, lines, from: 3)
        #expect(events(outputs).count == 80_000)
        #expect(tracker.trackedCount == 0)
    }
}
