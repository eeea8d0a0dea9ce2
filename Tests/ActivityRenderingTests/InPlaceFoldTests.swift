import ActivityRendering
import ActivityWire
import Testing

/// The store folds an event decoded in place (`apply(_: LineEvent…)`, what `activity render`
/// calls) exactly as the same event made whole.
@Suite("ActivityStore: events folded in place")
struct InPlaceFoldTests {
    /// What folding a stream leaves: each update's kind and event, the diagnostics, the summary.
    struct Folded: Equatable {
        var updates: [String] = []
        /// The updates' events, compared as values (a dictionary's text has no fixed order).
        var events: [ActivityEvent] = []
        /// What the store holds of each activity a `begin` made.
        var begins: [String] = []
        /// Their `attrs`, compared as values.
        var attributes: [[String: AttributeValue]] = []
        var diagnostics: [Diagnostic] = []
        var begun = 0
        var ended: [ActivityEvent.Status: Int] = [:]
    }

    static func fold(_ text: String, inPlace: Bool, limits: ActivityStore.Limits = .init()) throws -> Folded {
        var store = ActivityStore(limits: limits)
        var folded = Folded()
        var reader = EventStreamReader(source: BytesSource(Array(text.utf8)))
        try reader.forEach(
            events: { event, line in
                var updates: [ActivityUpdate] = []
                if inPlace {
                    folded.diagnostics += store.apply(event, line: line) { updates.append($0) }
                } else {
                    folded.diagnostics += store.apply(event.event(), line: line) { updates.append($0) }
                }
                folded.updates += updates.map { "\($0.kind)" }
                folded.events += updates.map { $0.event(in: store) }
                for update in updates where update.kind == .begin {
                    guard let activity = update.handle.flatMap({ store[$0] }) else { continue }
                    let parent = activity.parent.flatMap { store[$0]?.id.rawValue } ?? "-"
                    folded.begins.append(
                        "\(activity.id) \(activity.title) \(activity.unit ?? "-") \(activity.message ?? "-") "
                            + "\(parent) \(activity.depth) \(activity.completed) \(activity.total ?? -1) "
                            + "\(activity.cancellable) \(activity.blocking) \(activity.isFrame)")
                    folded.attributes.append(activity.attrs)
                }
            }, others: { _ in })
        folded.begun = store.summary.begun
        folded.ended = store.summary.ended
        return folded
    }

    @Test("Ends in any order and spelling, of open, unknown, ended and parent activities, fold alike")
    func ends() throws {
        let stream = """
            {"v":1,"type":"begin","ts":1,"id":"suite.1","title":"Suite"}
            {"v":1,"type":"begin","ts":2,"id":"suite.1.test-with-a-long-id","parent":"suite.1","title":"T"}
            {"id": "suite.1.test-with-a-long-id", "status": "failure", "error": "expected 0, got 1", "ts": 3, "type": "end", "v": 1}
            {"v":1,"type":"end","id":"suite.1.test-with-a-long-id"}
            {"v":1,"type":"end","id":"never.begun","message":"gone"}
            {"v":1,"type":"begin","ts":4,"id":"suite.2","parent":"suite.1","title":"Inner"}
            {"v":1,"type":"end","ts":5,"id":"suite.1","status":"cancelled","message":"stopped","completed":3,"total":4}
            {"v":1,"type":"begin","id":"e\\u0073caped","title":"E"}
            {"v":1,"type":"end","id":"\\u0065scaped","message":"caf\\u00e9"}
            {"v":1,"type":"end","id":"escaped"}

            """
        let whole = try Self.fold(stream, inPlace: false)
        let inPlace = try Self.fold(stream, inPlace: true)
        #expect(inPlace == whole)
        #expect(whole.ended[.failure] == 1 && whole.ended[.cancelled] == 1 && whole.ended[.abandoned] == 1)
        #expect(whole.diagnostics.map(\.code) == [.alreadyEnded, .unknownActivity, .childrenOpen, .alreadyEnded])
    }

    @Test("Begins of new, repeated, nested, orphaned and escaped activities, with and without attributes, fold alike")
    func begins() throws {
        let stream = """
            {"v":1,"type":"begin","ts":1,"id":"3f9c2a71d04be815.1","title":"Suite","total":4,"unit":"tests"}
            {"v":1,"type":"begin","ts":2,"id":"3f9c2a71d04be815.2","parent":"3f9c2a71d04be815.1","title":"T\\u00e9st","message":"a\\u001b[31mb"}
            {"title": "Again", "id": "3f9c2a71d04be815.2", "type": "begin", "v": 1}
            {"v":1,"type":"begin","id":"orphan","parent":"never.begun","title":"O","total":null,"completed":2}
            {"v":1,"type":"end","ts":3,"id":"3f9c2a71d04be815.2"}
            {"v":1,"type":"begin","id":"late","parent":"3f9c2a71d04be815.2","title":"L","cancellable":true}
            {"v":1,"type":"begin","id":"e\\u0073caped","parent":"3f9c2\\u0061\\u0037\\u0031d04be815.1","title":"E"}
            {"v":1,"type":"begin","id":"frame","title":"F","blocking":"dim","attrs":{"x-activity-frame":true,"k":"v"}}
            {"v":1,"type":"begin","id":"child","parent":"frame","title":"C","unit":"bytes"}
            {"v":1,"type":"begin","id":"one.too.many","title":"Dropped"}

            """
        let limits = ActivityStore.Limits(maxOpen: 6)
        let whole = try Self.fold(stream, inPlace: false, limits: limits)
        let inPlace = try Self.fold(stream, inPlace: true, limits: limits)
        #expect(inPlace == whole)
        #expect(whole.begins.count == 7)
        #expect(whole.diagnostics.map(\.code) == [.duplicateBegin, .unknownParent, .unknownParent])
    }

    @Test("A message repeated across activities, escaped, unsafe or changed, folds alike, as sent and as shown")
    func repeatedMessages() throws {
        let stream = """
            {"v":1,"type":"begin","ts":1,"id":"a","title":"A"}
            {"v":1,"type":"begin","ts":1,"id":"b","title":"B"}
            {"v":1,"type":"progress","ts":2,"id":"a","completed":1,"message":"passe 1 \\u2014 ok"}
            {"v":1,"type":"progress","ts":2,"id":"b","completed":1,"message":"passe 1 \\u2014 ok"}
            {"v":1,"type":"progress","ts":3,"id":"a","completed":2,"message":"passe 1 — ok"}
            {"v":1,"type":"progress","ts":3,"id":"b","completed":2,"message":"red \\u001b[31mtext"}
            {"v":1,"type":"progress","ts":4,"id":"a","completed":3,"message":"red \\u001b[31mtext"}
            {"v":1,"type":"progress","ts":4,"id":"b","completed":3,"message":"red \\u001b[31mtexts"}
            {"v":1,"type":"progress","ts":5,"id":"a","completed":4,"message":""}
            {"v":1,"type":"progress","ts":5,"id":"b","completed":4,"message":""}
            {"v":1,"type":"progress","ts":6,"id":"a","completed":5}

            """
        #expect(try Self.fold(stream, inPlace: true) == Self.fold(stream, inPlace: false))
        var store = ActivityStore()
        var shown: [String] = []
        var reader = EventStreamReader(source: BytesSource(Array(stream.utf8)))
        try reader.forEach(
            events: { event, line in
                var updates: [ActivityUpdate] = []
                store.apply(event, line: line) { updates.append($0) }
                for update in updates where update.kind == .progress {
                    guard let activity = update.handle.flatMap({ store[$0] }) else { continue }
                    shown.append("\(activity.id) \(activity.message ?? "-")")
                }
            }, others: { _ in })
        #expect(
            shown == [
                "a passe 1 — ok", "b passe 1 — ok", "a passe 1 — ok", "b red text", "a red text", "b red texts", "a ",
                "b ", "a ",
            ])
    }
}
