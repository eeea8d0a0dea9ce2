import ActivityTimeline
import ActivityWire
import Testing

@Suite("Timeline: critical path and layout")
struct CriticalPathTests {
    @Test("the path follows the last child and the sibling each step waited for")
    func build() throws {
        let timeline = try RecordingFixture.build()
        let ids = CriticalPath(timeline).activities.map { timeline.activities[$0].id.rawValue }
        // Build ← Package (ended last, with Build); before it Compile; inside Compile net.c ← main.c?
        // net.c started at 2.6, after main.c (2.5) ended: main.c is its predecessor.
        #expect(ids == ["b", "r", "c", "c1", "c3", "t", "p"])
    }

    @Test("parallel siblings share rows first fit; a parent's subtree stays below it")
    func layout() throws {
        let timeline = try RecordingFixture.timeline(
            (0..<40).flatMap { job in
                [
                    #"{"v":1,"type":"begin","ts":\#(100 + job / 4),"id":"j\#(job)","parent":"root","title":"Job"}"#,
                    #"{"v":1,"type":"end","ts":\#(101 + job / 4),"id":"j\#(job)"}"#,
                ]
            }.reduce(into: [#"{"v":1,"type":"begin","ts":100,"id":"root","title":"Root"}"#]) { $0.append($1) })
        let layout = TimelineLayout(timeline)
        #expect(layout.rowCount == 5)
        #expect(layout.rows[0] == 0)
        #expect(Set(layout.rows.dropFirst()) == [1, 2, 3, 4])
    }
}
