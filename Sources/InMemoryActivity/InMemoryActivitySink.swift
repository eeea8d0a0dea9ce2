import ActivityWire
import Synchronization

/// An ``ActivityEventSink`` that keeps every event in memory, for tests.
///
/// Bootstrap it (or hand it to a renderer's test), run the code under test, then look at what it
/// reported:
///
/// ```swift
/// import InMemoryActivity
///
/// let sink = InMemoryActivitySink()
/// ActivitySystem.bootstrap(sink)
/// try await syncLibrary()
/// ActivitySystem.flush()
/// #expect(sink.events.contains { if case .end(let end) = $0 { end.status == .success } else { false } })
/// ```
///
/// Thread-safe. Memory grows with every event: use it for tests, not for long-running programs.
public final class InMemoryActivitySink: ActivityEventSink {
    private let storage = Mutex<[ActivityEvent]>([])

    public init() {}

    public func send(_ event: ActivityEvent) {
        storage.withLock { $0.append(event) }
    }

    /// Every event received so far, in order.
    public var events: [ActivityEvent] {
        storage.withLock { $0 }
    }

    /// The events about one activity, in order (its `begin`, `progress`, `log` and `end`).
    public func events(for id: ActivityID) -> [ActivityEvent] {
        storage.withLock { $0.filter { $0.id == id } }
    }

    /// The `begin` events received so far.
    public var begins: [ActivityEvent.Begin] {
        storage.withLock { $0.compactMap { if case .begin(let e) = $0 { e } else { nil } } }
    }

    /// The `end` events received so far.
    public var ends: [ActivityEvent.End] {
        storage.withLock { $0.compactMap { if case .end(let e) = $0 { e } else { nil } } }
    }

    /// The `log` events received so far.
    public var logs: [ActivityEvent.Log] {
        storage.withLock { $0.compactMap { if case .log(let e) = $0 { e } else { nil } } }
    }

    /// The events as the JSON lines a writer would have produced, each ending in a newline.
    public var lines: [String] {
        let encoder = ActivityEventEncoder()
        return events.map { String(decoding: encoder.encode($0), as: UTF8.self) }
    }

    /// Forgets every event received so far.
    public func clear() {
        storage.withLock { $0.removeAll() }
    }
}
