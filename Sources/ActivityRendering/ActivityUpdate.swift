public import ActivityWire

/// One change to the store: which activity, what kind of event, and what the event set.
///
/// An update is small: the activity's ``handle`` and the fields the event changed, never a copy
/// of the activity. Read the activity from the store it came from, `store[handle]`, which holds
/// it after the change; the handles of a call's updates stay valid until the store's next
/// `apply` or `finish`, even for activities evicted by that call.
///
/// ```swift
/// func render(_ update: ActivityUpdate, in store: ActivityStore) {
///     guard update.kind == .end, let handle = update.handle, let activity = store[handle] else { return }
///     print(activity.title, activity.status ?? .abandoned)
/// }
/// ```
public struct ActivityUpdate: Sendable {
    /// The kind of event applied.
    public enum Kind: Sendable, Hashable {
        case begin, progress, log, end
    }

    /// What the event brought, as the producer sent it. A `begin` and an `end` carry no box of
    /// their own: a test suite streams a pair per test, and an allocation each is a good part of
    /// their cost.
    enum Payload: Sendable {
        /// A `progress`: the numbers it set, and its texts when it had any.
        case progress(completed: Double?, total: ActivityEvent.Total?, text: ProgressText?)
        /// A `begin`: the event as applied, which the activity's identity keeps.
        case begin(ActivityState.Identity)
        /// An `end`: how it ended, the numbers it set, and its texts when it had any.
        case end(status: ActivityEvent.Status, completed: Double?, total: ActivityEvent.Total?, text: EndText?)
        /// A `log`, normalized.
        case event(EventBox)
    }

    public let kind: Kind
    /// The activity the event changed; `nil` for a `log` about no open activity.
    public let handle: ActivityHandle?
    /// The event's time (its `ts`, filled in when it had none), Unix seconds.
    public let timestamp: Double
    let payload: Payload

    init(kind: Kind, handle: ActivityHandle?, timestamp: Double, payload: Payload) {
        self.kind = kind
        self.handle = handle
        self.timestamp = timestamp
        self.payload = payload
    }

    init(_ event: ActivityEvent, handle: ActivityHandle?, timestamp: Double) {
        let kind: Kind =
            switch event {
            case .begin: .begin
            case .progress: .progress
            case .log: .log
            case .end: .end
            }
        self.init(kind: kind, handle: handle, timestamp: timestamp, payload: .event(EventBox(event)))
    }

    /// The event as applied: `ts` filled in, an unknown parent removed, a `log` for an unknown id
    /// without its id, and `end` events with status `abandoned` made up for activities left
    /// open. Texts are as the producer sent them (for recordings and plugins): sanitize what you
    /// show. Made on each call; `store` is the store the update came from.
    public func event(in store: ActivityStore) -> ActivityEvent {
        switch payload {
        case .event(let box):
            return box.event
        case .begin(let identity):
            return .begin(identity.begin)
        case .end(let status, let completed, let total, let text):
            let id = handle.flatMap { store[$0]?.id } ?? ActivityID(unchecked: "-")
            return .end(
                ActivityEvent.End(
                    id: id, status: status, message: text?.message, error: text?.error, completed: completed,
                    total: total, timestamp: timestamp))
        case .progress(let completed, let total, let text):
            // The handle is valid until the store's next change, and a progress has one.
            let id = handle.flatMap { store[$0]?.id } ?? ActivityID(unchecked: "-")
            return .progress(
                ActivityEvent.Progress(
                    id: id, completed: completed, total: total, message: text?.message, title: text?.title,
                    timestamp: timestamp))
        }
    }

    /// A `log` event's level and message (unsanitized); `nil` for other kinds.
    public var log: ActivityEvent.Log? {
        guard case .event(let box) = payload, case .log(let log) = box.event else { return nil }
        return log
    }

    /// The title a `progress` set, as the producer sent it.
    var progressTitle: String? {
        guard case .progress(_, _, let text?) = payload else { return nil }
        return text.title
    }

    /// A normalized event, held by reference so that an update stays small.
    final class EventBox: Sendable {
        let event: ActivityEvent

        init(_ event: ActivityEvent) {
            self.event = event
        }
    }

    /// The texts of an `end` event, held by reference: most end events have none.
    final class EndText: Sendable {
        let message: String?
        let error: String?

        init(message: String?, error: String?) {
            self.message = message
            self.error = error
        }
    }

    /// The texts of a `progress` event, held by reference: most progress events have none.
    final class ProgressText: Sendable {
        let message: String?
        let title: String?

        init(message: String?, title: String?) {
            self.message = message
            self.title = title
        }
    }
}
