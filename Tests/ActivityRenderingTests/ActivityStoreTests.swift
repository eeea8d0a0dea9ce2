import ActivityRendering
import ActivityWire
import Testing

@Suite("ActivityStore: consumer rules and bounded memory")
struct ActivityStoreTests {
    func codes(_ store: ActivityStore) -> [Diagnostic.Code: Int] { store.summary.diagnostics }

    @Test("begin, progress and end build and shrink the tree")
    func tree() throws {
        var store = ActivityStore()
        _ = store.updates(applying: E.begin("a", "A", total: 10, at: 0))
        _ = store.updates(applying: E.begin("b", "B", parent: "a", at: 1))
        let updates = store.updates(
            applying: E.progress("a", 4, total: .indeterminate, message: "m", title: "A2", at: 2))
        let a = try #require(updates.first?.handle.flatMap { store[$0] })
        #expect(a.title == "A2" && a.message == "m" && a.completed == 4 && a.total == nil)
        #expect(store[E.id("b")]?.depth == 1)
        let handleA = try #require(store.handle(for: E.id("a")))
        let handleB = try #require(store.handle(for: E.id("b")))
        #expect(store.roots == [handleA])
        #expect(store[E.id("a")]?.children == [handleB])
        #expect(store[E.id("b")]?.parent == handleA)
        _ = store.updates(applying: E.end("b", at: 3))
        #expect(store[E.id("a")]?.children == [])
        #expect(store.openCount == 1)
        #expect(store[E.id("b")]?.duration(at: 99) == 2)
    }

    @Test("events for unknown or ended ids are ignored and counted; a log keeps its text")
    func unknownAndEnded() throws {
        var store = ActivityStore()
        #expect(store.updates(applying: E.progress("x", 1, at: 0)).isEmpty)
        #expect(store.updates(applying: E.end("x", at: 0)).isEmpty)
        _ = store.updates(applying: E.begin("a", "A", at: 0))
        _ = store.updates(applying: E.end("a", at: 1))
        #expect(store.updates(applying: E.end("a", .failure, at: 2)).isEmpty, "end twice")
        #expect(store[E.id("a")]?.status == .success)
        let log = store.updates(applying: E.log("late", id: "a", at: 3))
        guard case .log(let event) = try #require(log.first?.event(in: store)) else {
            Issue.record("not a log")
            return
        }
        #expect(log.first?.handle == nil)
        #expect(event.id == nil && event.message == "late")
        #expect(codes(store)[.unknownActivity] == 2)
        #expect(codes(store)[.alreadyEnded] == 2)
    }

    @Test("a duplicate begin is ignored")
    func duplicateBegin() {
        var store = ActivityStore()
        _ = store.updates(applying: E.begin("a", "First", at: 0))
        #expect(store.updates(applying: E.begin("a", "Second", at: 1)).isEmpty)
        #expect(store[E.id("a")]?.title == "First")
        #expect(codes(store)[.duplicateBegin] == 1)
        #expect(store.summary.begun == 1)
    }

    @Test("an unknown parent attaches at the top; the normalized begin has no parent")
    func unknownParent() throws {
        var store = ActivityStore()
        let updates = store.updates(applying: E.begin("c", "Child", parent: "ghost", at: 0))
        guard case .begin(let begin) = try #require(updates.first?.event(in: store)) else { return }
        #expect(begin.parent == nil)
        #expect(store.roots == [try #require(store.handle(for: E.id("c")))])
        #expect(store[E.id("c")]?.depth == 0)
        #expect(codes(store)[.unknownParent] == 1)
    }

    @Test("children still open when their parent ends are abandoned first, deepest first")
    func childrenAbandoned() {
        var store = ActivityStore()
        _ = store.updates(applying: E.begin("p", "P", at: 0))
        _ = store.updates(applying: E.begin("c1", "C1", parent: "p", at: 0))
        _ = store.updates(applying: E.begin("g", "G", parent: "c1", at: 0))
        _ = store.updates(applying: E.begin("c2", "C2", parent: "p", at: 0))
        let updates = store.updates(applying: E.end("p", at: 5))
        let ends = updates.compactMap { update -> String? in
            guard case .end(let end) = update.event(in: store) else { return nil }
            return "\(end.id):\(end.status.rawValue)"
        }
        #expect(ends == ["g:abandoned", "c1:abandoned", "c2:abandoned", "p:success"])
        #expect(store.openCount == 0)
        #expect(codes(store)[.childrenOpen] == 1)
    }

    @Test("finish ends everything open as abandoned, in begin order")
    func finish() {
        var store = ActivityStore()
        _ = store.updates(applying: E.begin("a", "A", at: 0))
        _ = store.updates(applying: E.begin("b", "B", at: 0))
        _ = store.updates(applying: E.begin("b.1", "B1", parent: "b", at: 0))
        let ids = store.updates(finishingAt: 9).compactMap { $0.event(in: store).id?.rawValue }
        #expect(ids == ["a", "b.1", "b"])
        #expect(store.summary.count(.abandoned) == 3)
        #expect(store.openCount == 0)
        #expect(store.updates(finishingAt: 10).isEmpty)
    }

    @Test("a missing timestamp takes the last one seen")
    func timestamps() throws {
        var store = ActivityStore()
        _ = store.updates(applying: E.begin("a", "A", at: 100))
        let updates = store.updates(applying: .progress(.init(id: E.id("a"), completed: 1)))
        let update = try #require(updates.first)
        #expect(update.timestamp == 100)
        #expect(update.event(in: store) == .progress(.init(id: E.id("a"), completed: 1, timestamp: 100)))
    }

    @Test("finished activities are evicted past the cap; 200,000 keep memory flat")
    func eviction() {
        var store = ActivityStore(limits: .init(maxOpen: 100, retainedFinished: 50))
        for index in 0..<200_000 {
            let id = ActivityID("a\(index)")!
            let time = Double(index) * 0.001
            _ = store.apply(.begin(.init(id: id, title: "T", total: 2, timestamp: time)), line: index) { _ in }
            _ = store.apply(.progress(.init(id: id, completed: 1, timestamp: time)), line: index) { _ in }
            _ = store.apply(.end(.init(id: id, timestamp: time)), line: index) { _ in }
            if index % 20_000 == 0 { #expect(store.retainedCount <= 51) }
        }
        #expect(store.retainedCount <= 50)
        #expect(store.summary.begun == 200_000)
        #expect(store.summary.count(.success) == 200_000)
    }

    @Test("at most maxOpen activities are open; further begins are dropped and counted")
    func openCap() {
        var store = ActivityStore(limits: .init(maxOpen: 1000, retainedFinished: 10))
        for index in 0..<100_000 {
            _ = store.updates(applying: E.begin("a\(index)", "T", at: 0))
        }
        #expect(store.openCount == 1000)
        #expect(store.retainedCount == 1000)
        #expect(store.summary.dropped == 99_000)
        #expect(store.updates(finishingAt: 1).count == 1000)
    }

    @Test("a chain nested 10,000 deep ends without recursion")
    func deepNesting() {
        var store = ActivityStore()
        _ = store.updates(applying: E.begin("n0", "N", at: 0))
        for depth in 1..<10_000 {
            _ = store.updates(applying: E.begin("n\(depth)", "N", parent: "n\(depth - 1)", at: 0))
        }
        #expect(store[E.id("n9999")]?.depth == 9999)
        let ends = store.updates(finishingAt: 1)
        #expect(ends.count == 10_000)
        #expect(ends.first?.event(in: store).id == E.id("n9999"))
        #expect(ends.last?.event(in: store).id == E.id("n0"))
        #expect(store.openCount == 0)
    }
}
