import ActivityTimeline
import ActivityWire
import Foundation
import Testing

@Suite("Timeline: the Chrome trace's plan, made as activities end")
struct ChromeTracePlanTests {
    /// Folds `data` forgetting each activity once it has ended, as `activity export` does.
    static func streamed(_ data: Data) throws -> ChromeTracePlan {
        var reader = EventStreamReader(source: BytesSource(data))
        var builder = TimelineBuilder(keepsEnded: false, remembersEndedIDs: true)
        var plan = ChromeTracePlan()
        func record(_ indices: [Int]) {
            for index in indices {
                plan.record(builder[index], parent: builder[index].parent.map { builder[$0].sequence })
                builder.release(index)
            }
        }
        try reader.forEach { item in
            guard item.isLineStart, case .event(let event) = item.decoded else { return }
            record(builder.apply(event, fallbackTime: builder.latestTime ?? 0))
        }
        record(builder.finish())
        for log in builder.looseLogs { plan.record(looseLogAt: log.time) }
        return plan
    }

    @Test("recorded in the order activities end, it decides what the whole timeline's plan does")
    func streamedMatchesWhole() throws {
        let data = try Data(contentsOf: RecordingFixture.folder.appendingPathComponent("build.jsonl"))
        let whole = ChromeTracePlan(try Timeline.read(BytesSource(data)).timeline)
        let streamed = try Self.streamed(data)
        #expect(streamed.count == whole.count)
        #expect(streamed.synchronous() == whole.synchronous())
        #expect(streamed.counterTracks(limit: 100) == whole.counterTracks(limit: 100))
        #expect(streamed.counterTracks(limit: 1) == whole.counterTracks(limit: 1))
        #expect(streamed.origin == whole.origin)
        #expect(streamed.processName == whole.processName)
    }

    @Test("sequence numbers follow the order activities began, also when slots are reused")
    func sequence() throws {
        var builder = TimelineBuilder(keepsEnded: false, remembersEndedIDs: true)
        var ended: [(id: String, sequence: Int)] = []
        let lines = [
            #"{"v":1,"type":"begin","ts":1,"id":"a","title":"A"}"#,
            #"{"v":1,"type":"end","ts":2,"id":"a","status":"success"}"#,
            #"{"v":1,"type":"begin","ts":3,"id":"b","title":"B"}"#,
            #"{"v":1,"type":"begin","ts":3,"id":"a","title":"A again, refused"}"#,
            #"{"v":1,"type":"end","ts":4,"id":"b","status":"success"}"#,
        ]
        var reader = EventStreamReader(source: BytesSource(Array(lines.joined(separator: "\n").utf8)))
        try reader.forEach { item in
            guard item.isLineStart, case .event(let event) = item.decoded else { return }
            for index in builder.apply(event, fallbackTime: 0) {
                ended.append((builder[index].id.rawValue, builder[index].sequence))
                builder.release(index)
            }
        }
        #expect(ended.map(\.id) == ["a", "b"])
        #expect(ended.map(\.sequence) == [0, 1])
    }
}
