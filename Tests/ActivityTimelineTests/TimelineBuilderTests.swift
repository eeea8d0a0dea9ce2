import ActivityTimeline
import ActivityWire
import Testing

@Suite("Timeline: folding a recording")
struct TimelineBuilderTests {
    @Test("nesting, times from ts, outcomes, logs and progress samples")
    func build() throws {
        let timeline = try RecordingFixture.build()
        #expect(timeline.activities.count == 9)
        #expect(timeline.roots.map { timeline.activities[$0].id.rawValue } == ["b"])
        #expect(timeline.start == 1_700_000_000.0)
        #expect(timeline.end == 1_700_000_004.5)
        let byID = Dictionary(uniqueKeysWithValues: timeline.activities.map { ($0.id.rawValue, $0) })
        #expect(byID["c2"]?.outcome == .failure)
        #expect(byID["c2"]?.error == "exit status 1")
        #expect(byID["c2"]?.logs.map(\.message) == ["util.c:12: error: expected ';'"])
        #expect(byID["c2"]?.depth == 2)
        #expect(byID["c2"]?.rootID.rawValue == "b")
        #expect(byID["t"]?.outcome == .skipped)
        #expect(byID["dl"]?.samples.map(\.completed) == [0, 1_048_576, 4_194_304])
        #expect(abs((byID["dl"]?.rate ?? 0) - 4_194_304 / 2.2) < 1)
        // The parent ended while Package was open: Package is abandoned at the parent's end.
        #expect(byID["p"]?.outcome == .abandoned)
        #expect(byID["p"]?.end == 1_700_000_004.5)
        #expect(timeline.looseLogs.map(\.message) == ["disk almost full"])
        #expect(
            timeline.path(of: timeline.activities.firstIndex { $0.id.rawValue == "c2" }!) == [
                "Build", "Compile", "util.c",
            ])
    }

    @Test("the end of the stream abandons what is open; an unknown parent puts a child at the top")
    func abandonedAndOrphans() throws {
        let timeline = try RecordingFixture.timeline([
            #"{"v":1,"type":"begin","ts":10,"id":"a","title":"A"}"#,
            #"{"v":1,"type":"begin","ts":11,"id":"b","parent":"nowhere","title":"B"}"#,
            #"{"v":1,"type":"begin","ts":12,"id":"c","parent":"a","title":"C"}"#,
            #"{"v":1,"type":"progress","ts":15,"id":"c","completed":2}"#,
        ])
        #expect(timeline.roots.count == 2)
        #expect(timeline.activities.allSatisfy { $0.outcome == .abandoned && $0.end == 15 })
    }

    @Test("a live builder forgets what ended and reuses the slot; children end before their parent")
    func live() {
        var builder = TimelineBuilder(keepsEnded: false)
        let a = ActivityID("a")!
        let b = ActivityID("b")!
        builder.apply(.begin(.init(id: a, title: "A", timestamp: 1)), fallbackTime: 0)
        builder.apply(.begin(.init(id: b, title: "B", parent: a, timestamp: 2)), fallbackTime: 0)
        let ended = builder.apply(.end(.init(id: a, timestamp: 3)), fallbackTime: 0)
        #expect(ended.map { builder[$0].id } == [b, a])
        #expect(builder[ended[0]].outcome == .abandoned)
        for index in ended { builder.release(index) }
        builder.apply(.begin(.init(id: ActivityID("c")!, title: "C")), fallbackTime: 9)
        #expect(builder.finish().map { builder[$0].start } == [9])
    }

    @Test("an end abandons its descendants each before its parent, siblings in the order they began")
    func abandonOrder() {
        var builder = TimelineBuilder()
        func id(_ name: String) -> ActivityID { ActivityID(name)! }
        for (name, parent) in [("a", nil), ("b", "a"), ("c", "b"), ("d", "a"), ("e", "d"), ("f", "a")] {
            builder.apply(.begin(.init(id: id(name), title: name, parent: parent.map(id))), fallbackTime: 1)
        }
        let ended = builder.apply(.end(.init(id: id("a"), timestamp: 2)), fallbackTime: 0)
        #expect(ended.map { builder[$0].id.description } == ["c", "b", "e", "d", "f", "a"])
    }

    // A consumers' fuzzer input: a chain of nested activities as deep as the stream is long
    // overflowed the stack when its root's end, or the end of the stream, abandoned the chain.
    @Test("a chain of 50,000 nested activities abandoned at its root's end and at the stream's end")
    func deepChain() {
        for endsRoot in [true, false] {
            var builder = TimelineBuilder()
            let depth = 50_000
            for level in 0..<depth {
                let parent = level == 0 ? nil : ActivityID("n\(level - 1)")!
                builder.apply(.begin(.init(id: ActivityID("n\(level)")!, title: "t", parent: parent)), fallbackTime: 1)
            }
            let ended =
                endsRoot
                ? builder.apply(.end(.init(id: ActivityID("n0")!, timestamp: 2)), fallbackTime: 0) : builder.finish()
            #expect(ended.count == depth)
            #expect(ended.first.map { builder[$0].id } == ActivityID("n\(depth - 1)"))
            #expect(ended.last.map { builder[$0].id } == ActivityID("n0"))
        }
    }
}
