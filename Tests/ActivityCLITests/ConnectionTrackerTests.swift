import ActivityRendering
import ActivityWire
import Testing

@testable import ActivityCLI

@Suite("Connection tracking under activity run")
struct ConnectionTrackerTests {
    func feed(_ tracker: inout ConnectionTracker, _ lines: [String], from fd: Int32, into session: RenderSession) {
        Array(lines.map { $0 + "\n" }.joined().utf8).withUnsafeBytes { tracker.receive($0, from: fd, into: session) }
    }

    @Test("a reporter cannot change or end another reporter's activity, nor the run's own")
    func trustRule() {
        let (session, seen) = RecordingRenderer.session()
        let root = ActivityID("root")!
        var tracker = ConnectionTracker(root: root, tree: .emitScripts)
        tracker.open(5)
        tracker.open(6)
        feed(&tracker, [#"{"v":1,"type":"begin","id":"a","title":"A"}"#], from: 5, into: session)
        _ = seen.take()
        feed(
            &tracker,
            [
                #"{"v":1,"type":"progress","id":"a","completed":3}"#, #"{"v":1,"type":"end","id":"a"}"#,
                #"{"v":1,"type":"progress","id":"root","message":"hijacked"}"#,
                #"{"v":1,"type":"end","id":"root","status":"failure"}"#,
                #"{"v":1,"type":"begin","id":"root","title":"again"}"#,
            ], from: 6, into: session)
        let foreign = seen.take()
        #expect(foreign.events.isEmpty)
        #expect(foreign.codes == Array(repeating: .notOwner, count: 5))
        // The owner still may, and its activity is still its own when it goes away.
        feed(&tracker, [#"{"v":1,"type":"progress","id":"a","completed":4}"#], from: 5, into: session)
        #expect(seen.take().events.count == 1)
        tracker.close(5, into: session)
        let abandoned = seen.take().events
        #expect(abandoned.count == 1)
        if case .end(let end)? = abandoned.first { #expect(end.status == .abandoned) } else { Issue.record("no end") }
    }

    @Test("any connection may end what activity emit began: each emit is a connection of its own")
    func emitOwned() {
        let (session, seen) = RecordingRenderer.session()
        var tracker = ConnectionTracker(root: ActivityID("r")!, tree: .emitScripts)
        tracker.open(3)
        tracker.open(4)
        feed(
            &tracker, [#"{"v":1,"type":"begin","id":"s","title":"S","attrs":{"x-activity-owner-pid":4242}}"#],
            from: 3, into: session)
        tracker.close(3, into: session)
        #expect(session.activity(ActivityID("s")!)?.isRunning == true, "not its connection's to abandon")
        _ = seen.take()
        feed(&tracker, [#"{"v":1,"type":"end","id":"s"}"#], from: 4, into: session)
        let ended = seen.take()
        #expect(ended.codes.filter { $0 != .unknownParent }.isEmpty)
        #expect(ended.events.count == 1)
        #expect(!tracker.watchesProcesses || session.activity(ActivityID("s")!)?.isRunning == false)
    }

    @Test("the activities of an activity emit caller end when its process is gone, the latest first")
    func processGone() {
        let (session, seen) = RecordingRenderer.session()
        var tracker = ConnectionTracker(root: ActivityID("r")!, tree: .emitScripts)
        tracker.open(3)
        feed(
            &tracker,
            [
                #"{"v":1,"type":"begin","id":"p1","title":"P1","attrs":{"x-activity-owner-pid":4242}}"#,
                #"{"v":1,"type":"begin","id":"p2","title":"P2","attrs":{"x-activity-owner-pid":4242}}"#,
                #"{"v":1,"type":"begin","id":"q","title":"Q","attrs":{"x-activity-owner-pid":4343}}"#,
            ], from: 3, into: session)
        _ = seen.take()
        tracker.reapProcesses(isAlive: { $0 == 4343 }, into: session)
        #expect(seen.take().events.compactMap { $0.id?.rawValue } == ["p2", "p1"])
        #expect(session.activity(ActivityID("q")!)?.isRunning == true)
        #expect(tracker.watchesProcesses)
    }

    @Test("begin/end pairs from one reporter all reach the store and leave nothing open")
    func pairs() {
        let (session, seen) = RecordingRenderer.session()
        var tracker = ConnectionTracker(root: ActivityID("r")!, tree: .emitScripts)
        tracker.open(3)
        var lines: [String] = []
        for index in 0..<40_000 {
            lines.append(#"{"v":1,"type":"begin","id":"p\#(index)","title":"P"}"#)
            lines.append(#"{"v":1,"type":"end","id":"p\#(index)"}"#)
        }
        feed(&tracker, lines, from: 3, into: session)
        #expect(seen.take().events.count == 80_000)
        tracker.close(3, into: session)
        #expect(seen.take().events.isEmpty, "nothing was left open to abandon")
    }
}
