@_spi(Consumers) import ActivityWire

/// The latest text made from a line's bytes, kept with its sanitized form, so that the next line
/// with the same bytes makes neither again.
///
/// Producers repeat a message across the activities they run (every worker's `compiling…`, one
/// step's status for each file of a batch): making it a `String` (checking its UTF-8, resolving
/// its escapes) and sanitizing it was most of the cost of a progress line that carries one. The
/// bytes compared are the line's own, escapes and all, so a repeat costs one comparison, and the
/// strings handed out share their storage.
struct RepeatedText {
    /// A progress's message: as shown, and as sent in the box its update carries (immutable, so
    /// every update of the same message shares one).
    struct Message {
        var shown: String
        var sent: ActivityUpdate.ProgressText

        init(_ text: String, shown: String) {
            self.shown = shown
            sent = ActivityUpdate.ProgressText(message: text, title: nil)
        }

        var text: String { sent.message! }
    }

    private var bytes: [UInt8] = []
    private var escaped = false
    private var kept: Message?

    /// The message `field` holds in `event`'s line, sanitized (``TerminalSanitizer/display(_:)``)
    /// and as the producer sent it.
    mutating func message(of field: LineEvent.Text, in event: borrowing LineEvent) -> Message {
        let raw = UnsafeBufferPointer(rebasing: event.bytes[field.range])
        if let kept, field.escaped == escaped, Self.equal(raw, bytes) { return kept }
        let text = event.string(field)
        let made = Message(text, shown: TerminalSanitizer.display(text))
        kept = made
        escaped = field.escaped
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: raw)
        return made
    }

    /// Whether `line` holds the bytes of `kept`.
    @inline(__always)
    private static func equal(_ line: UnsafeBufferPointer<UInt8>, _ kept: [UInt8]) -> Bool {
        guard line.count == kept.count else { return false }
        guard line.count > 0, let wanted = line.baseAddress else { return true }
        return kept.withUnsafeBytes { sameBytes($0.baseAddress!, wanted, count: line.count) }
    }
}
