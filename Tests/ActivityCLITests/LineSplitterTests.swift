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
                splitter.feed(bytes) { lines.append(String(decoding: $0.bytes, as: UTF8.self) + ($0.isComplete ? "" : "…")) }
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

    func feed(_ tracker: inout ConnectionTracker, _ text: String, from fd: Int32) -> [ConnectionTracker.Output] {
        Array(text.utf8).withUnsafeBytes { tracker.receive($0, from: fd) }
    }

    @Test("a closed connection abandons only its own open activities, the latest first")
    func abandon() throws {
        let root = ActivityID("root")!
        var tracker = ConnectionTracker(root: root)
        tracker.open(5)
        tracker.open(6)
        let first = feed(&tracker, #"{"v":1,"type":"begin","id":"a","title":"A"}"# + "\n" + #"{"v":1,"type":"begin","id":"b","parent":"a","title":"B"}"# + "\n", from: 5)
        #expect(first.count == 2)
        guard case .event(.begin(let a)) = first[0] else { Issue.record("not a begin"); return }
        #expect(a.parent == root)
        _ = feed(&tracker, #"{"v":1,"type":"begin","id":"c","title":"C"}"# + "\n", from: 6)
        _ = feed(&tracker, #"{"v":1,"type":"end","id":"b"}"# + "\n" + #"{"v":1,"type":"begin","id":"d","title":"D"}"#, from: 5)
        let closed = tracker.close(5)
        let ended = closed.compactMap { output -> String? in
            if case .event(.end(let end)) = output, end.status == .abandoned { return end.id.rawValue }
            return nil
        }
        // "d" had no newline but still counts; "b" ended; "c" belongs to another connection.
        #expect(ended == ["d", "a"])
        #expect(closed.count == 3)
        #expect(tracker.close(6).count == 1)
    }

    @Test("a broken line is reported, and the stream goes on")
    func diagnostics() {
        var tracker = ConnectionTracker(root: ActivityID("r")!)
        tracker.open(3)
        let outputs = feed(&tracker, "not json\n" + #"{"v":1,"type":"log","message":"hi"}"# + "\n", from: 3)
        #expect(outputs.count == 2)
        if case .diagnostic(let d) = outputs[0] { #expect(d.line == 1) } else { Issue.record("no diagnostic") }
    }

    @Test("activities begun by activity emit belong to the calling process")
    func ownedByProcess() {
        var tracker = ConnectionTracker(root: ActivityID("r")!)
        tracker.open(3)
        _ = feed(&tracker, #"{"v":1,"type":"begin","id":"s","title":"S","attrs":{"x-activity-owner-pid":4242}}"# + "\n", from: 3)
        #expect(tracker.close(3).isEmpty)
        #expect(tracker.watchesProcesses)
        #expect(tracker.reapProcesses(isAlive: { _ in true }).isEmpty)
        let reaped = tracker.reapProcesses(isAlive: { $0 != 4242 })
        #expect(reaped == [.event(.end(.init(id: ActivityID("s")!, status: .abandoned, message: "its reporter went away")))])
        #expect(!tracker.watchesProcesses)
    }
}
