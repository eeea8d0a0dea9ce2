import ActivityRendering
import ActivityWire
import Testing

@testable import ActivityCLI

@Suite("Line splitting and connection tracking")
struct LineSplitterTests {
    func split(_ chunks: [String], max: Int = 64) -> [String] {
        var splitter = LineSplitter(maxLineBytes: max)
        var lines: [String] = []
        for chunk in chunks {
            Array(chunk.utf8).withUnsafeBytes { bytes in
                splitter.feed(bytes) {
                    lines.append(String(decoding: $0.bytes, as: UTF8.self) + ($0.isComplete ? "" : "…"))
                }
            }
        }
        splitter.finish { lines.append(String(decoding: $0.bytes, as: UTF8.self)) }
        return lines
    }

    @Test("lines cut across chunks are put back together; a final line without newline is kept")
    func chunks() {
        #expect(split(["ab", "c\nd", "e\n\nf"]) == ["abc", "de", "", "f"])
        #expect(split(["one\n"]) == ["one"])
    }

    @Test("an overlong line comes in pieces")
    func overlong() {
        #expect(split(["abcdefghij\n"], max: 4) == ["abcd…", "efgh…", "ij"])
    }

    func feed(_ tracker: inout ConnectionTracker, _ text: String, from fd: Int32, into session: RenderSession) {
        Array(text.utf8).withUnsafeBytes { tracker.receive($0, from: fd, into: session) }
    }

    /// The ids of the activities that ended as abandoned.
    func abandoned(_ events: [ActivityEvent]) -> [String] {
        events.compactMap { event -> String? in
            if case .end(let end) = event, end.status == .abandoned { return end.id.rawValue }
            return nil
        }
    }

    @Test("a closed connection abandons only its own open activities, the latest first")
    func abandon() throws {
        let (session, seen) = RecordingRenderer.session()
        let root = ActivityID("root")!
        session.handle(.begin(.init(id: root, title: "Run")))
        var tracker = ConnectionTracker(root: root, tree: .emitScripts)
        tracker.open(5)
        tracker.open(6)
        _ = seen.take()
        feed(
            &tracker,
            #"{"v":1,"type":"begin","id":"a","title":"A"}"# + "\n"
                + #"{"v":1,"type":"begin","id":"b","parent":"a","title":"B"}"# + "\n", from: 5, into: session)
        let first = seen.take().events
        #expect(first.count == 2)
        guard case .begin(let a) = first[0] else { Issue.record("not a begin"); return }
        #expect(a.parent == root)
        feed(&tracker, #"{"v":1,"type":"begin","id":"c","title":"C"}"# + "\n", from: 6, into: session)
        feed(
            &tracker, #"{"v":1,"type":"end","id":"b"}"# + "\n" + #"{"v":1,"type":"begin","id":"d","title":"D"}"#,
            from: 5, into: session)
        _ = seen.take()
        tracker.close(5, into: session)
        let closed = seen.take().events
        // "d" had no newline but still counts; "b" ended; "c" belongs to another connection.
        #expect(abandoned(closed) == ["d", "a"])
        #expect(closed.count == 3)
        tracker.close(6, into: session)
        #expect(abandoned(seen.take().events) == ["c"])
    }

    @Test("a broken line is reported, and the stream goes on")
    func diagnostics() {
        let (session, seen) = RecordingRenderer.session()
        var tracker = ConnectionTracker(root: ActivityID("r")!, tree: .emitScripts)
        tracker.open(3)
        feed(&tracker, "not json\n" + #"{"v":1,"type":"log","message":"hi"}"# + "\n", from: 3, into: session)
        let outputs = seen.take()
        #expect(outputs.codes == [.invalidJSON])
        #expect(outputs.events.count == 1)
    }

    @Test("activities begun by activity emit belong to the calling process")
    func ownedByProcess() {
        let (session, seen) = RecordingRenderer.session()
        var tracker = ConnectionTracker(root: ActivityID("r")!, tree: .emitScripts)
        tracker.open(3)
        feed(
            &tracker, #"{"v":1,"type":"begin","id":"s","title":"S","attrs":{"x-activity-owner-pid":4242}}"# + "\n",
            from: 3, into: session)
        _ = seen.take()
        tracker.close(3, into: session)
        #expect(seen.take().events.isEmpty)
        #expect(tracker.watchesProcesses)
        tracker.reapProcesses(isAlive: { _ in true }, into: session)
        #expect(seen.take().events.isEmpty)
        tracker.reapProcesses(isAlive: { $0 != 4242 }, into: session)
        let reaped = seen.take().events
        #expect(abandoned(reaped) == ["s"])
        if case .end(let end)? = reaped.first { #expect(end.message == "its reporter went away") }
        #expect(!tracker.watchesProcesses)
    }
}
