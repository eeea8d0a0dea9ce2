import ActivityRendering
import ActivityWire
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("requestCancel: a renderer's Cancel goes to whoever reaches the producers")
struct RequestCancelTests {
    @Test("sent only for a running cancellable activity, and only with somewhere to send it")
    func rules() throws {
        let sent = Mutex<[ActivityID]>([])
        var store = ActivityStore()
        let a = try #require(ActivityID("a"))
        let plain = try #require(ActivityID("plain"))
        _ = store.updates(applying: .begin(.init(id: a, title: "A", cancellable: true)))
        _ = store.updates(applying: .begin(.init(id: plain, title: "P")))
        #expect(!store.requestCancel(a))  // nowhere to send it yet
        store.onCancelRequest = { id in sent.withLock { $0.append(id) } }
        #expect(store.requestCancel(a))
        #expect(!store.requestCancel(plain))
        #expect(!store.requestCancel(ActivityID("unknown")!))
        _ = store.updates(applying: .end(.init(id: a, status: .cancelled)))
        #expect(!store.requestCancel(a))
        #expect(sent.withLock { $0 } == [a])
    }

    @Test("RenderSession.requestCancel goes through the options' handler")
    func session() throws {
        let sent = Mutex<[ActivityID]>([])
        let devNull = open("/dev/null", O_WRONLY)
        defer { close(devNull) }
        var options = RenderOptions(mode: .jsonl, displayFileDescriptor: devNull)
        options.onCancelRequest = { id in sent.withLock { $0.append(id) } }
        options.handlesSignals = false
        let session = try RenderSession(options: options)
        let a = try #require(ActivityID("a"))
        session.handle(.begin(.init(id: a, title: "A", cancellable: true)))
        #expect(session.requestCancel(a))
        session.handle(.end(.init(id: a)))
        session.finish()
        #expect(sent.withLock { $0 } == [a])
    }
}
