import ActivityOverlay
import ActivityRendering
import ActivityTimeline
@_spi(Consumers) import ActivityWire
import Testing

/// The renderers' store, the timeline, the validator and the overlay model fold a stream that
/// breaks every rule the same way (they run one fold, `ConsumerFold`): the same problems on the
/// same lines, in the same words where they know the same, and the same activities with the
/// same parents and outcomes. Where the overlay differs, its role says why (see
/// ``overlaySameRules()``).
@Suite("The consumer rules: one decision and one wording for every fold")
struct ConsumerRulesAgreementTests {
    static let stream = """
        {"v":1,"type":"begin","ts":1,"id":"a","title":"A"}
        {"v":1,"type":"begin","ts":2,"id":"a","title":"A again"}
        {"v":1,"type":"begin","ts":3,"id":"c","parent":"zz","title":"C"}
        {"v":1,"type":"progress","ts":4,"id":"q","completed":1}
        {"v":1,"type":"begin","ts":5,"id":"b","parent":"a","title":"B"}
        {"v":1,"type":"begin","ts":6,"id":"d","parent":"b","title":"D"}
        {"v":1,"type":"end","ts":7,"id":"a","status":"success"}
        {"v":1,"type":"progress","ts":8,"id":"a","completed":2}
        {"v":1,"type":"begin","ts":9,"id":"e","parent":"a","title":"E"}
        {"v":1,"type":"begin","ts":10,"id":"a","title":"A once more"}
        {"v":1,"type":"log","ts":11,"id":"b","message":"late"}
        {"v":1,"type":"end","ts":12,"id":"c","status":"failure"}
        {"v":1,"type":"end","ts":13,"id":"e","status":"success"}
        """

    static var events: [(line: Int, event: ActivityEvent)] {
        stream.split(separator: "\n").enumerated().map { index, line in
            guard case .event(let event) = ActivityEventDecoder().decode(Array(line.utf8), line: index + 1) else {
                fatalError("line \(index + 1) does not decode")
            }
            return (index + 1, event)
        }
    }

    /// Line 2 and 10: duplicates (open, then ended); 3: unknown parent; 4: never begun; 7: an end
    /// with its child and grandchild open; 8: already ended; 9: a parent that has ended; 11: a
    /// log for an activity abandoned with its parent.
    static let expected: [Int: Diagnostic.Code] = [
        2: .duplicateBegin, 3: .unknownParent, 4: .unknownActivity, 7: .childrenOpen, 8: .alreadyEnded,
        9: .unknownParent, 10: .duplicateBegin, 11: .alreadyEnded,
    ]

    @Test("the validator and the store find the same problems on the same lines")
    func sameProblems() {
        var validator = StreamValidator()
        var store = ActivityStore()
        var validated: [Int: Diagnostic] = [:]
        var stored: [Int: Diagnostic] = [:]
        for (line, event) in Self.events {
            for problem in validator.check(event, line: line) { validated[line] = problem }
            for problem in store.apply(event, line: line, { _ in }) { stored[line] = problem }
        }
        #expect(validated.mapValues(\.code) == Self.expected)
        #expect(stored.mapValues(\.code) == Self.expected)
        // Where both know the same, both say the same.
        for line in [2, 8, 9, 10, 11] {
            #expect(validated[line]?.message == stored[line]?.message, "line \(line)")
        }
        #expect(validated[3]?.message == #"the parent "zz" was never begun; attached at the top"#)
        #expect(stored[3]?.message == #"the parent "zz" is not open; attached at the top"#)
        // The descendants in the order they end: each before its parent.
        #expect(
            stored[7]?.message
                == #""A" (a) ended while its descendants "D" (d), "B" (b) were still open; they end as abandoned"#)
        #expect(
            validated[7]?.message
                == #""a" ended while its descendants "d", "b" were still open; they end as abandoned"#)
    }

    /// The overlay model lives as long as the app that shows it, so it forgets an id once its
    /// activity ends (its memory is bounded by what is open) and reports nothing (a problem
    /// would have no reader). So, on this stream, by its role:
    /// - lines 8 and 11 (events for an id that ended) read "is not open", `unknown-activity`,
    ///   where the store and the validator, which remember ended ids, say `already-ended`;
    /// - line 10 (a `begin` that reuses the ended "a") begins "a" again, where the others refuse
    ///   a duplicate; it is still open when the stream ends;
    /// - lines 3, 4 and 9 name the id "not open", as the store does.
    /// Everything else is the same: the same problems on the other lines, the same parents, and
    /// the same outcomes (the descendants of "a" abandoned, in the same order, with it).
    @Test("the overlay model follows the same rules, forgetting ended ids as its role asks")
    func overlaySameRules() throws {
        var model = OverlayModel()
        var store = ActivityStore()
        var problems: [Int: Diagnostic] = [:]
        var stored: [Int: Diagnostic] = [:]
        var parents: [String: String] = [:]
        var ends: [(id: String, status: ActivityEvent.Status)] = []
        var storeEnds: [(id: String, status: ActivityEvent.Status)] = []
        for (line, event) in Self.events {
            var updates: [ActivityUpdate] = []
            for problem in store.apply(event, line: line, { updates.append($0) }) { stored[line] = problem }
            for update in updates {
                if case .end(let end) = update.event(in: store) { storeEnds.append((end.id.rawValue, end.status)) }
            }
            let step = try #require(model.reduceFollowingRules(.event(event), at: line).step)
            if let problem = step.problem { problems[line] = problem.diagnostic(line: line) }
            switch step.outcome {
            case .begun(let slot, let parent):
                parents[model.rules.id(of: slot).rawValue] = parent.map { model.rules.id(of: $0).rawValue } ?? "-"
            case .ended(let slot, let abandoned):
                ends += abandoned.map { (model.rules.id(of: $0).rawValue, .abandoned) }
                guard case .end(let end) = event else { break }
                ends.append((model.rules.id(of: slot).rawValue, end.status))
            default:
                break
            }
        }
        var expected = Self.expected
        expected[8] = .unknownActivity
        expected[10] = nil
        expected[11] = .unknownActivity
        #expect(problems.mapValues(\.code) == expected)
        for line in [2, 3, 4] { #expect(problems[line]?.message == stored[line]?.message, "line \(line)") }
        #expect(
            problems[7]?.message == #""a" ended while its descendants "d", "b" were still open; they end as abandoned"#)
        #expect(problems[8]?.message == #"progress for "a", which is not open"#)
        #expect(problems[9]?.message == #"the parent "a" is not open; attached at the top"#)
        #expect(parents == ["a": "-", "b": "a", "c": "-", "d": "b", "e": "-"])
        #expect(
            ends.map { "\($0.id) \($0.status)" }
                == ["d abandoned", "b abandoned", "a success", "c failure", "e success"])
        #expect(ends.map { "\($0.id) \($0.status)" } == storeEnds.map { "\($0.id) \($0.status)" })
        // The second "a", open at the end of the stream, is what the overlay shows.
        #expect(model.rules.roots.map { model.rules.id(of: $0).rawValue } == ["a"])
        #expect(model.state.title == "A once more")
    }

    @Test("the store and the timeline make the same activities, parents and outcomes")
    func sameActivities() {
        var store = ActivityStore()
        var ends: [String: ActivityEvent.Status] = [:]
        var parents: [String: String] = [:]
        var builder = TimelineBuilder()
        for (_, event) in Self.events {
            for update in store.updates(applying: event) {
                switch update.event(in: store) {
                case .begin(let begin): parents[begin.id.rawValue] = begin.parent?.rawValue ?? "-"
                case .end(let end): ends[end.id.rawValue] = end.status
                default: break
                }
            }
            builder.apply(event, fallbackTime: 0)
        }
        builder.finish()
        let timeline = builder.timeline()
        #expect(Dictionary(uniqueKeysWithValues: timeline.activities.map { ($0.id.rawValue, $0.status) }) == ends)
        #expect(
            Dictionary(uniqueKeysWithValues: timeline.activities.map { ($0.id.rawValue, $0.parentID?.rawValue ?? "-") })
                == parents)
        #expect(ends == ["a": .success, "b": .abandoned, "d": .abandoned, "c": .failure, "e": .success])
        #expect(parents == ["a": "-", "b": "a", "c": "-", "d": "b", "e": "-"])
        #expect(timeline.activities.first { $0.id.rawValue == "a" }?.title == "A")
    }
}
