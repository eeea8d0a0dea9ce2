/// Writes events as protocol v1 JSON lines.
///
/// The output is compact, in a fixed key order (`v`, `type`, `ts`, `id`, then the type's fields),
/// escaped per RFC 8259 (`/` is not escaped, non-ASCII is written as UTF-8), and ends in `\n`.
/// Defaults are left out where the protocol defines them (`completed: 0`, `cancellable: false`,
/// `blocking: "none"` and empty `attrs` on `begin`); `status` and `level` are always written.
///
/// A line never exceeds ``maxLineBytes``: the longest text fields are cut on a UTF-8 boundary and
/// end in "…" until it fits. Numbers the protocol forbids are never written: a negative count
/// becomes 0, an infinite one 2^53, and a NaN is left out.
///
/// ```swift
/// var encoder = ActivityEventEncoder()
/// let bytes = encoder.encode(.log(.init(message: "hello")))
/// // {"v":1,"type":"log","level":"info","message":"hello"}\n
/// ```
public struct ActivityEventEncoder: Sendable {
    /// The longest line written, newline included.
    public var maxLineBytes: Int

    public init(maxLineBytes: Int = WireLimits.maxProducedLineBytes) {
        self.maxLineBytes = max(maxLineBytes, 512)
    }

    /// Returns the event as one line, `\n` included.
    public func encode(_ event: ActivityEvent) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        encode(event, into: &out)
        return out
    }

    /// Appends the event as one line, `\n` included, to `buffer`.
    public func encode(_ event: ActivityEvent, into buffer: inout [UInt8]) {
        let start = buffer.count
        JSONWriter.write(event, into: &buffer)
        guard buffer.count - start > maxLineBytes else { return }
        buffer.removeSubrange(start...)
        buffer.append(contentsOf: fitted(event, limit: maxLineBytes))
    }

    /// Shortens the event's text until its line fits in `limit` bytes.
    private func fitted(_ event: ActivityEvent, limit: Int) -> [UInt8] {
        var event = event
        var line = encodeUnlimited(event)
        while line.count > limit, let field = TextField.longest(in: event) {
            let text = field.get(event)
            var shortest = event
            field.set(&shortest, Self.ellipsis)
            let shortestLine = encodeUnlimited(shortest)
            guard shortestLine.count < limit else {
                (event, line) = (shortest, shortestLine)  // this field alone cannot make room
                continue
            }
            // Keep as much of the field as fits: escapes make encoded length differ from raw length.
            var (fits, tooLong) = (0, text.utf8.count)
            var best = (shortest, shortestLine)
            while tooLong - fits > 1 {
                let middle = (fits + tooLong) / 2
                var candidate = event
                field.set(&candidate, Self.truncated(text, toBytes: middle))
                let candidateLine = encodeUnlimited(candidate)
                if candidateLine.count <= limit {
                    (fits, best) = (middle, (candidate, candidateLine))
                } else {
                    tooLong = middle
                }
            }
            (event, line) = best
        }
        if line.count > limit, case .begin(var begin) = event {
            begin.attributes = [:]  // only a pathological attrs object is left; a line is worth more
            line = encodeUnlimited(.begin(begin))
        }
        return line
    }

    private func encodeUnlimited(_ event: ActivityEvent) -> [UInt8] {
        var line: [UInt8] = []
        JSONWriter.write(event, into: &line)
        return line
    }

    static let ellipsis = "…"

    /// `text` cut to at most `bytes` UTF-8 bytes on a scalar boundary, plus "…".
    static func truncated(_ text: String, toBytes bytes: Int) -> String {
        let utf8 = text.utf8
        guard utf8.count > bytes else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: bytes)
        while end > utf8.startIndex, UTF8.isContinuation(utf8[end]) {
            end = utf8.index(before: end)
        }
        return String(text[..<end]) + ellipsis
    }
}

/// A text field of an event that the encoder may shorten.
private enum TextField: Hashable {
    case title, message, unit, error
    case attribute(AttributeKey)

    /// The longest text field of `event` that still has something to cut.
    static func longest(in event: ActivityEvent) -> TextField? {
        var best: (field: TextField, length: Int)?
        for field in fields(of: event) {
            let length = field.get(event).utf8.count
            if length > ActivityEventEncoder.ellipsis.utf8.count, length > best?.length ?? 0 { best = (field, length) }
        }
        return best?.field
    }

    private static func fields(of event: ActivityEvent) -> [TextField] {
        switch event {
        case .begin(let b): [.title, .message, .unit] + b.attributes.keys.sorted().map { .attribute($0) }
        case .progress: [.title, .message]
        case .log: [.message]
        case .end: [.message, .error]
        }
    }

    func get(_ event: ActivityEvent) -> String {
        switch (event, self) {
        case (.begin(let e), .title): e.title
        case (.begin(let e), .message): e.message ?? ""
        case (.begin(let e), .unit): e.unit ?? ""
        case (.begin(let e), .attribute(let key)): if case .string(let s) = e.attributes[key] { s } else { "" }
        case (.progress(let e), .title): e.title ?? ""
        case (.progress(let e), .message): e.message ?? ""
        case (.log(let e), .message): e.message
        case (.end(let e), .message): e.message ?? ""
        case (.end(let e), .error): e.error ?? ""
        default: ""
        }
    }

    func set(_ event: inout ActivityEvent, _ text: String) {
        switch (event, self) {
        case (.begin(var e), .title): e.title = text; event = .begin(e)
        case (.begin(var e), .message): e.message = text; event = .begin(e)
        case (.begin(var e), .unit): e.unit = text; event = .begin(e)
        case (.begin(var e), .attribute(let key)): e.attributes[key] = .string(text); event = .begin(e)
        case (.progress(var e), .title): e.title = text; event = .progress(e)
        case (.progress(var e), .message): e.message = text; event = .progress(e)
        case (.log(var e), .message): e.message = text; event = .log(e)
        case (.end(var e), .message): e.message = text; event = .end(e)
        case (.end(var e), .error): e.error = text; event = .end(e)
        default: break
        }
    }
}
