import ActivityRendering
import ActivityWire
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("The TTY display's cancel key: what Esc cancels, once")
struct CancelKeyTests {
    func id(_ text: String) -> ActivityID { ActivityID(text)! }

    func begin(_ store: inout ActivityStore, _ id: String, cancellable: Bool = true, frame: Bool = false) {
        let attrs: [String: AttributeValue] = frame ? [ActivityEvent.Begin.frameAttribute: .bool(true)] : [:]
        _ = store.updates(
            applying: .begin(.init(id: self.id(id), title: "Title \(id)", cancellable: cancellable, attrs: attrs)))
    }

    func end(_ store: inout ActivityStore, _ id: String) {
        _ = store.updates(applying: .end(.init(id: self.id(id), status: .cancelled)))
    }

    @Test("not offered: no hint, and the key is not taken")
    func notOffered() {
        var store = ActivityStore()
        begin(&store, "a")
        var key = CancelKey()
        #expect(key.hint(in: store) == nil)
        #expect(key.press(in: store) == (false, []))
    }

    @Test("offered with nothing cancellable: no hint, the key goes on")
    func nothingCancellable() {
        var store = ActivityStore()
        begin(&store, "a", cancellable: false)
        var key = CancelKey()
        key.isOffered = true
        #expect(key.hint(in: store) == nil)
        #expect(key.press(in: store) == (false, []))
    }

    @Test("one cancel per activity however often pressed; cancelling… until it ends")
    func exactlyOnce() {
        var store = ActivityStore()
        begin(&store, "a")
        var key = CancelKey()
        key.isOffered = true
        #expect(key.hint(in: store) == .available(title: "Title a", others: 0))
        #expect(key.press(in: store) == (true, [id("a")]))
        for _ in 0..<5 { #expect(key.press(in: store) == (true, [])) }
        #expect(key.hint(in: store) == .cancelling(title: "Title a"))
        // Another cancellable activity begins while the first is pending: only it is asked.
        begin(&store, "b")
        #expect(key.hint(in: store) == .available(title: "Title b", others: 0))
        #expect(key.press(in: store) == (true, [id("b")]))
        end(&store, "a")
        end(&store, "b")
        #expect(key.hint(in: store) == nil)
        #expect(key.press(in: store) == (false, []))
        #expect(key.requested.isEmpty)
    }

    @Test("a cancel racing the activity's own end changes nothing")
    func racingTheEnd() {
        var store = ActivityStore()
        begin(&store, "a")
        var key = CancelKey()
        key.isOffered = true
        #expect(key.hint(in: store) != nil)
        end(&store, "a")
        #expect(key.press(in: store) == (false, []))
    }

    @Test("the work inside frames first; a cancellable frame only when no work is")
    func framesLast() {
        var store = ActivityStore()
        begin(&store, "run", frame: true)
        var key = CancelKey()
        key.isOffered = true
        #expect(key.hint(in: store) == .available(title: "Title run", others: 0))
        begin(&store, "a")
        begin(&store, "b")
        begin(&store, "c", cancellable: false)
        #expect(key.hint(in: store) == .available(title: "Title a", others: 1))
        #expect(key.press(in: store) == (true, [id("a"), id("b")]))
        // While the work's cancel is pending, the frame is left alone.
        #expect(key.press(in: store) == (true, []))
    }

    @Test("RenderSession.pressCancelKey sends one request per activity through the options' handler")
    func session() throws {
        let sent = Mutex<[ActivityID]>([])
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        var options = RenderOptions(mode: .tty, displayFileDescriptor: devNull)
        options.onCancelRequest = { id in sent.withLock { $0.append(id) } }
        options.handlesSignals = false
        let session = try RenderSession(options: options)
        session.handle(.begin(.init(id: id("a"), title: "A", cancellable: true)))
        #expect(!session.pressCancelKey())  // not offered
        session.offerCancelKey(true)
        #expect(session.pressCancelKey())
        #expect(session.pressCancelKey())
        session.handle(.end(.init(id: id("a"), status: .cancelled)))
        #expect(!session.pressCancelKey())
        session.finish()
        #expect(sent.withLock { $0 } == [id("a")])
    }

    @Test("the live region's last line: Esc cancels …, then cancelling…, then nothing")
    func hintLine() {
        let h = TerminalHarness(columns: 60, rows: 8)
        h.renderer.cancelKey.isOffered = true
        h.send(.begin(.init(id: id("w"), title: "Waiting for approval", cancellable: true, timestamp: 0)))
        h.frame(at: 0.1, "offered")
        #expect(h.screen.picture.contains("Esc cancels Waiting for approval"), "\(h.screen.picture)")
        _ = h.renderer.cancelKey.press(in: h.store)
        h.frame(at: 0.2, "pressed")
        #expect(h.screen.picture.contains("cancelling Waiting for approval…"), "\(h.screen.picture)")
        #expect(!h.screen.picture.contains("Esc cancels"))
        h.send(.end(.init(id: id("w"), status: .cancelled, timestamp: 0.3)))
        h.frame(at: 0.4, "ended")
        #expect(!h.screen.picture.contains("cancelling"))
        h.renderer.cancelKey.isOffered = false
        h.send(.begin(.init(id: id("x"), title: "Another", cancellable: true, timestamp: 0.5)))
        h.frame(at: 0.6, "not offered")
        #expect(!h.screen.picture.contains("Esc"))
        h.finish(at: 1)
        #expect(h.frameProblems.isEmpty, "\(h.frameProblems)")
    }
}
