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
    /// their cost. Two cases, as few as can be: an update is copied on every event, and copying an
    /// enum of more cases with references is a call of its own.
    enum Payload: Sendable {
        /// A `progress` or an `end`: the numbers it set, an end's status, and its texts when it
        /// had any (a ``ProgressText``, an ``EndText``).
        case numbers(
            completed: Double?, total: ActivityEvent.Total?, status: ActivityEvent.Status?,
            text: (any AnyObject & Sendable)?)
        /// A `begin`: the activity's identity (``ActivityState/Identity``), which keeps the event as
        /// applied; a `log`: an ``EventBox``.
        case object(any EventHolder)
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
        self.init(kind: kind, handle: handle, timestamp: timestamp, payload: .object(EventBox(event)))
    }

    /// The event as applied: `ts` filled in, an unknown parent removed, a `log` for an unknown id
    /// without its id, and `end` events with status `abandoned` made up for activities left
    /// open. Texts are as the producer sent them (for recordings and plugins): sanitize what you
    /// show. Made on each call; `store` is the store the update came from.
    public func event(in store: ActivityStore) -> ActivityEvent {
        switch payload {
        case .object(let object):
            return object.event
        case .numbers(let completed, let total, let status, let text):
            // The handle is valid until the store's next change, and a progress and an end have one.
            let id = handle.flatMap { store[$0]?.id } ?? ActivityID(unchecked: "-")
            if let status {
                let text = text as? EndText
                return .end(
                    ActivityEvent.End(
                        id: id, status: status, message: text?.message, error: text?.error, completed: completed,
                        total: total, timestamp: timestamp))
            }
            let text = text as? ProgressText
            return .progress(
                ActivityEvent.Progress(
                    id: id, completed: completed, total: total, message: text?.message, title: text?.title,
                    timestamp: timestamp))
        }
    }

    /// A `log` event's level and message (unsanitized); `nil` for other kinds.
    public var log: ActivityEvent.Log? {
        guard case .object(let object) = payload, let box = object as? EventBox, case .log(let log) = box.event
        else { return nil }
        return log
    }

    /// The title a `progress` set, as the producer sent it.
    var progressTitle: String? {
        guard case .numbers(_, _, nil, let text?) = payload else { return nil }
        return (text as? ProgressText)?.title
    }

    /// What holds the event of a `begin` or a `log`.
    protocol EventHolder: AnyObject, Sendable {
        var event: ActivityEvent { get }
    }

    /// A normalized event, held by reference so that an update stays small.
    final class EventBox: EventHolder {
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
