import Testing

@_spi(Consumers) @testable import ActivityWire

/// The one fold of the consumer rules, alone: what it returns for each event, and what it
/// remembers of ids that ended.
@Suite("ConsumerFold: the consumer rules, applied")
struct ConsumerFoldTests {
    static func id(_ name: String) -> ActivityID { ActivityID(name)! }

    static func begin(_ name: String, parent: String? = nil) -> ActivityEvent {
        .begin(.init(id: id(name), title: name, parent: parent.map(id)))
    }

    static func end(_ name: String) -> ActivityEvent { .end(.init(id: id(name), status: .success)) }

    static func progress(_ name: String) -> ActivityEvent { .progress(.init(id: id(name), completed: 1)) }

    @Test("an end abandons the open descendants, each before its parent, siblings in begin order")
    func abandonedInOrder() throws {
        var fold = ConsumerFold()
        for (name, parent) in [("a", nil), ("b", "a"), ("c", "b"), ("d", "b"), ("e", "a"), ("f", nil)] {
            _ = fold.apply(Self.begin(name, parent: parent))
        }
        let step = fold.apply(Self.end("a"))
        guard case .ended(let slot, let abandoned) = step.outcome else {
            Issue.record("not ended: \(step)")
            return
        }
        #expect(fold.id(of: slot) == Self.id("a"))
        #expect(abandoned.map { fold.id(of: $0).rawValue } == ["c", "d", "b", "e"])
        #expect(step.problem?.code == .childrenOpen)
        #expect(fold.openCount == 1)
        #expect(fold.roots.map { fold.id(of: $0).rawValue } == ["f"])
        // The abandoned have ended: a late event for one is refused, as for any ended id.
        #expect(fold.apply(Self.progress("c")).problem == .notOpen(.progress, Self.id("c"), .ended))
    }

    @Test("a begin under a parent that ended goes to the top; a duplicate and an unknown id are refused")
    func refusals() {
        var fold = ConsumerFold()
        _ = fold.apply(Self.begin("p"))
        _ = fold.apply(Self.end("p"))
        let orphan = fold.apply(Self.begin("c", parent: "p"))
        guard case .begun(_, nil) = orphan.outcome else {
            Issue.record("not begun at the top: \(orphan)")
            return
        }
        #expect(orphan.problem == .unknownParent(Self.id("p"), .ended))
        #expect(fold.apply(Self.begin("c")) == .init(.refused, .duplicateBegin(Self.id("c"))))
        #expect(fold.apply(Self.begin("p")) == .init(.refused, .duplicateBegin(Self.id("p"))))
        #expect(fold.apply(Self.end("q")) == .init(.refused, .notOpen(.end, Self.id("q"), .neverBegun)))
    }

    @Test("with retainedEnded, older ended ids are forgotten: 'not open', and their slots reused after release")
    func forgetting() throws {
        var fold = ConsumerFold(retainedEnded: 1)
        for name in ["a", "b"] {
            _ = fold.apply(Self.begin(name))
            _ = fold.apply(Self.end(name))
        }
        // "a" is forgotten (readable until the next change), "b" still known to have ended.
        let forgotten = fold.forgotten
        #expect(forgotten.map { fold.id(of: $0) } == [Self.id("a")])
        #expect(fold.standing(of: Self.id("a")) == .notOpen)
        #expect(fold.standing(of: Self.id("b")) == .ended)
        #expect(fold.standing(of: Self.id("never")) == .notOpen)
        #expect(fold.heldCount == 1)
        let generation = fold.generation(of: forgotten[0])
        // A forgotten id may begin again (the fold cannot know it ended), in the freed slot.
        let again = fold.apply(Self.begin("a"))
        #expect(again == .init(.begun(forgotten[0], parent: nil)))
        #expect(fold.generation(of: forgotten[0]) == generation + 1)
        #expect(fold.apply(Self.progress("a")) == .init(.applied(forgotten[0])))
    }

    @Test("ids reused in a slot, longer and shorter, are found by their bytes alone")
    func idBytes() {
        var fold = ConsumerFold(retainedEnded: 0)
        var names: [String] = []
        for round in 0..<3000 {
            let name = String(repeating: "x", count: 1 + round % 120) + ".\(round)"
            names.append(name)
            _ = fold.apply(Self.begin(name))
            if round % 3 == 0 { _ = fold.apply(Self.end(names.removeFirst())) }
        }
        #expect(fold.openCount == names.count)
        for name in names {
            var bytes = Array(name.utf8)
            let slot = bytes.withUnsafeMutableBufferPointer { fold.slot(of: UnsafeBufferPointer($0)) }
            #expect(slot.map { fold.id(of: $0).rawValue } == name)
        }
        #expect(fold.slot(of: Self.id("x.0")) == nil)
    }

    @Test("past maxOpen a begin is dropped, without a problem")
    func dropped() {
        var fold = ConsumerFold(maxOpen: 1)
        _ = fold.apply(Self.begin("a"))
        #expect(fold.apply(Self.begin("b")) == .init(.dropped))
        #expect(fold.apply(Self.progress("b")).problem == .notOpen(.progress, Self.id("b"), .neverBegun))
    }

    @Test("finish ends everything open, each top-level activity after its descendants, in begin order")
    func finish() {
        var fold = ConsumerFold()
        for (name, parent) in [("a", nil), ("b", "a"), ("c", nil), ("d", "c")] {
            _ = fold.apply(Self.begin(name, parent: parent))
        }
        #expect(fold.finish().map { fold.id(of: $0).rawValue } == ["b", "a", "d", "c"])
        #expect(fold.openCount == 0)
    }
}
