/// An event decoded in place: its numbers and enumerations read, its texts left where they stand
/// in the line, so a consumer pays for a `String` only for the texts it keeps.
///
/// Valid only while the line's bytes are: a consumer reads it during the callback that handed it
/// the line. ``event()`` makes the ``ActivityEvent`` the line decodes to, exactly as
/// ``ActivityEventDecoder/decode(_:line:)-(UnsafeBufferPointer<UInt8>,_)`` does.
///
/// `@unchecked Sendable` so that it can be handed into a lock's closure, and to another thread
/// together with the buffer that holds its line, which that thread then owns until it is done
/// with the event; it must never outlive its line's bytes.
@usableFromInline
package struct LineEvent: @unchecked Sendable {
    @usableFromInline
    package enum Kind: UInt8, Sendable {
        case begin, progress, log, end
    }

    /// A string value in the line: the bytes between its quotes, `escaped` when they hold a
    /// backslash (then the text differs from the bytes).
    @usableFromInline
    package struct Text {
        @usableFromInline package var range: Range<Int>
        @usableFromInline package var escaped: Bool

        @inlinable package init(range: Range<Int>, escaped: Bool) {
            self.range = range
            self.escaped = escaped
        }
    }

    /// The longest line an event is decoded from: text offsets fit in 31 bits.
    static let maxLineBytes = Int(Int32.max)

    // The event is copied a few times on its way to the store, so it is kept small (104 bytes,
    // copied inline rather than by `memcpy`) and free of references: texts are packed offsets,
    // absent numbers are NaN (a decoded count or time is never NaN).

    package let bytes: UnsafeBufferPointer<UInt8>
    package var kind: Kind
    package var cancellable = false
    package var blocking = ActivityEvent.Blocking.none
    package var level = ActivityEvent.Level.info
    package var status = ActivityEvent.Status.success
    // Read by the store on every event, from another module: the accessors below are inlinable.
    @usableFromInline var storedTimestamp = Double.nan
    @usableFromInline var storedCompleted = Double.nan
    /// NaN for none, -1 for `null` (indeterminate).
    @usableFromInline var storedTotal = Double.nan
    @usableFromInline var texts = PackedTexts()

    @inlinable package var timestamp: Double? {
        get { storedTimestamp.isNaN ? nil : storedTimestamp }
        set { storedTimestamp = newValue ?? .nan }
    }
    @inlinable package var completed: Double? {
        get { storedCompleted.isNaN ? nil : storedCompleted }
        set { storedCompleted = newValue ?? .nan }
    }
    @inlinable package var total: ActivityEvent.Total? {
        get { storedTotal.isNaN ? nil : storedTotal < 0 ? .indeterminate : .value(storedTotal) }
        set {
            switch newValue {
            case nil: storedTotal = .nan
            case .indeterminate: storedTotal = -1
            case .value(let value): storedTotal = value
            }
        }
    }
    /// A valid id (checked after its escapes are resolved); `nil` only for a `log` without one.
    @inlinable package var id: Text? {
        get { texts.id.text }
        set { texts.id = PackedText(newValue) }
    }
    @inlinable package var parent: Text? {
        get { texts.parent.text }
        set { texts.parent = PackedText(newValue) }
    }
    @inlinable package var title: Text? {
        get { texts.title.text }
        set { texts.title = PackedText(newValue) }
    }
    @inlinable package var message: Text? {
        get { texts.message.text }
        set { texts.message = PackedText(newValue) }
    }
    @inlinable package var unit: Text? {
        get { texts.unit.text }
        set { texts.unit = PackedText(newValue) }
    }
    @inlinable package var error: Text? {
        get { texts.error.text }
        set { texts.error = PackedText(newValue) }
    }
    /// The `attrs` object, checked; its members are read by ``event()``.
    @inlinable package var attributes: Text? {
        get { texts.attributes.text }
        set { texts.attributes = PackedText(newValue) }
    }

    @inline(__always)
    init(bytes: UnsafeBufferPointer<UInt8>, kind: Kind, timestamp: Double?) {
        self.bytes = bytes
        self.kind = kind
        self.storedTimestamp = timestamp ?? .nan
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
            if let attributes {
                // Checked when the line was decoded, so this cannot fail.
                begin.attributes =
                    (try? FieldReader.attributes(in: JSONScanner(bytes), object: attributes.range)) ?? [:]
            }
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

/// A ``LineEvent/Text`` in 8 bytes: its offsets, the escape flag in the end's top bit, and
/// `UInt32.max` as the start of none.
@usableFromInline
struct PackedText {
    @usableFromInline var start = UInt32.max
    @usableFromInline var end: UInt32 = 0

    @inlinable init() {}

    @inlinable init(_ text: LineEvent.Text?) {
        guard let text else { return }
        start = UInt32(truncatingIfNeeded: text.range.lowerBound)
        end = UInt32(truncatingIfNeeded: text.range.upperBound) | (text.escaped ? 1 << 31 : 0)
    }

    @inlinable var text: LineEvent.Text? {
        guard start != UInt32.max else { return nil }
        return LineEvent.Text(range: Int(start)..<Int(end & ~(1 << 31)), escaped: end & (1 << 31) != 0)
    }
}

/// The texts of a ``LineEvent``, packed.
@usableFromInline
struct PackedTexts {
    @usableFromInline var id = PackedText()
    @usableFromInline var parent = PackedText()
    @usableFromInline var title = PackedText()
    @usableFromInline var message = PackedText()
    @usableFromInline var unit = PackedText()
    @usableFromInline var error = PackedText()
    @usableFromInline var attributes = PackedText()

    @inlinable init() {}
}
