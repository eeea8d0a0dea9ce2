/// An event decoded in place: its numbers and enumerations read, its texts left where they stand
/// in the line, so a consumer pays for a `String` only for the texts it keeps.
///
/// Valid only while the line's bytes are: a consumer reads it during the callback that handed it
/// the line. ``event()`` makes the ``ActivityEvent`` the line decodes to, exactly as
/// ``ActivityEventDecoder/decode(_:line:)-(UnsafeBufferPointer<UInt8>,_)`` does.
///
/// `@unchecked Sendable` only so that it can be handed into a lock's closure, which runs at once
/// on the same thread; it must never be kept or sent to another thread.
package struct LineEvent: @unchecked Sendable {
    package enum Kind: UInt8, Sendable {
        case begin, progress, log, end
    }

    /// A string value in the line: the bytes between its quotes, `escaped` when they hold a
    /// backslash (then the text differs from the bytes).
    package struct Text {
        package var range: Range<Int>
        package var escaped: Bool
    }

    package let bytes: UnsafeBufferPointer<UInt8>
    package var kind: Kind
    package var timestamp: Double?
    /// A valid id (checked after its escapes are resolved); `nil` only for a `log` without one.
    package var id: Text?
    package var parent: Text?
    package var title: Text?
    package var message: Text?
    package var unit: Text?
    package var error: Text?
    package var completed: Double?
    package var total: ActivityEvent.Total?
    package var cancellable = false
    package var blocking = ActivityEvent.Blocking.none
    package var level = ActivityEvent.Level.info
    package var status = ActivityEvent.Status.success
    package var attributes: [AttributeKey: AttributeValue] = [:]

    init(bytes: UnsafeBufferPointer<UInt8>, kind: Kind, timestamp: Double?) {
        self.bytes = bytes
        self.kind = kind
        self.timestamp = timestamp
    }

    /// The text with its escapes resolved.
    package func string(_ text: Text) -> String {
        JSONScanner(bytes).decodeString(text.range, escaped: text.escaped)
    }

    /// Calls `body` with the text's bytes, escapes resolved: in place unless it has escapes.
    package func withBytes<R>(of text: Text, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard text.escaped else { return try body(UnsafeBufferPointer(rebasing: bytes[text.range])) }
        return try JSONScanner(bytes).decodeBytes(text.range, keepingSurrogates: false).withUnsafeBufferPointer(body)
    }

    /// An id field as an ``ActivityID``.
    package func activityID(_ text: Text) -> ActivityID {
        ActivityID(unchecked: string(text))
    }

    /// The event the line decodes to.
    package func event() -> ActivityEvent {
        switch kind {
        case .begin:
            var begin = ActivityEvent.Begin(
                id: activityID(id!), title: string(title!), parent: parent.map(activityID), total: total?.value,
                completed: completed ?? 0, unit: unit.map(string), message: message.map(string),
                cancellable: cancellable, blocking: blocking, timestamp: timestamp)
            begin.attributes = attributes
            return .begin(begin)
        case .progress:
            return .progress(
                ActivityEvent.Progress(
                    id: activityID(id!), completed: completed, total: total, message: message.map(string),
                    title: title.map(string), timestamp: timestamp))
        case .log:
            return .log(
                ActivityEvent.Log(
                    message: string(message!), id: id.map(activityID), level: level, timestamp: timestamp))
        case .end:
            return .end(
                ActivityEvent.End(
                    id: activityID(id!), status: status, message: message.map(string), error: error.map(string),
                    completed: completed, total: total, timestamp: timestamp))
        }
    }
}

/// What one line is, decoded in place: an event, or any other ``DecodedLine`` (never `.event`).
package enum LineDecoding {
    case event(LineEvent)
    case other(DecodedLine)

    /// The line as ``DecodedLine``, the event made whole.
    package var decoded: DecodedLine {
        switch self {
        case .event(let event): .event(event.event())
        case .other(let other): other
        }
    }
}
