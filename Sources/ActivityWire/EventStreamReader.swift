/// Reads a whole stream: splits it into lines and decodes each one.
///
/// Every line reaches `body` once, with what it decoded to and its raw bytes, so a consumer can
/// pass non-event lines through unchanged. A line over ``WireLimits/maxAcceptedLineBytes`` is
/// delivered in pieces, each carrying the same ``Diagnostic/Code/lineTooLong`` result, and is
/// never held in memory whole.
///
/// ```swift
/// var reader = EventStreamReader(source: FileDescriptorSource(fileDescriptor: 0))
/// try reader.forEach { item in
///     if case .event(let event) = item.decoded { _ = store.updates(applying: event) }
/// }
/// ```
public struct EventStreamReader<Source: ByteSource> {
    /// One line, or one piece of an overlong line.
    public typealias Item = StreamItem

    private var lines: LineReader<Source>
    private let decoder = ActivityEventDecoder()

    public init(source: Source, maxLineBytes: Int = WireLimits.maxAcceptedLineBytes) {
        lines = LineReader(source: source, maxLineBytes: maxLineBytes)
    }

    /// Reads to the end of the source.
    public mutating func forEach(_ body: (Item) throws -> Void) throws {
        try forEach(events: nil, others: body)
    }

    /// Reads to the end of the source, handing each line that is an event (in any field order
    /// and spelling) straight to `event` with its line number, decoded in place, and every other
    /// line to `others`: the hot path of a consumer that folds events, without wrapping each in
    /// an item.
    package mutating func forEach(
        events event: ((LineEvent, Int) throws -> Void)?, others body: (Item) throws -> Void
    ) throws {
        // Unwrapped once, not per line (which would retain and release the closure each time).
        if let event {
            try forEach(takesEvents: true, events: event, others: body)
        } else {
            try forEach(takesEvents: false, events: { _, _ in }, others: body)
        }
    }

    /// Reads as ``forEach(events:others:)`` does with a consumer for events, into buffers the
    /// caller owns (see ``LineReader/forEachLine(into:pendingBytes:line:next:_:)``, which says
    /// how `next` is called, and how reading goes on from another's pause): the events and items
    /// of one read stay valid until the caller reuses their buffer, so that they can be handed to
    /// another thread with it.
    package mutating func forEach(
        into first: UnsafeMutableBufferPointer<UInt8>, pendingBytes: Int = 0, line: Int = 1,
        beforeRead: () throws -> Void = {},
        next: (LineReader<Source>.Pause) throws -> UnsafeMutableBufferPointer<UInt8>,
        events event: (LineEvent, Int) throws -> Void, others body: (Item) throws -> Void
    ) throws {
        let decoder = self.decoder
        var overlong: LineDecoding = .other(.blank)
        var order = FastPathOrder()
        let limit = lines.maxLineBytes
        try lines.forEachLine(
            into: first, pendingBytes: pendingBytes, line: line, beforeRead: beforeRead, next: next
        ) { line in
            try Self.deliver(line, decoder, takesEvents: true, limit: limit, &overlong, &order, event, body)
        }
    }

    /// The bytes each buffer of ``forEach(into:pendingBytes:line:next:events:others:)`` holds at least.
    package var minimumBufferBytes: Int { lines.minimumBufferBytes }

    private mutating func forEach(
        takesEvents: Bool, events event: (LineEvent, Int) throws -> Void, others body: (Item) throws -> Void
    ) throws {
        let decoder = self.decoder
        var overlong: LineDecoding = .other(.blank)
        var order = FastPathOrder()
        let limit = lines.maxLineBytes
        try lines.forEachLine { line in
            try Self.deliver(line, decoder, takesEvents: takesEvents, limit: limit, &overlong, &order, event, body)
        }
    }

    /// Decodes one line (or piece) and hands it on: to `event` when it is an event and
    /// `takesEvents`, to `body` otherwise. `overlong` carries the result of an
    /// overlong line's first piece to the pieces after it; `order`, which fast path the stream's
    /// lines take.
    @inline(__always)
    private static func deliver(
        _ line: StreamLine, _ decoder: ActivityEventDecoder, takesEvents: Bool, limit: Int,
        _ overlong: inout LineDecoding, _ order: inout FastPathOrder, _ event: (LineEvent, Int) throws -> Void,
        _ body: (Item) throws -> Void
    ) throws {
        switch line.part {
        case .whole:
            let decoded: LineDecoding
            if let fast = decoder.fastEvent(line.bytes, &order) {
                if takesEvents { return try event(fast, line.number) }
                decoded = .event(fast)
            } else {
                decoded = decoder.decodeSlowly(line.bytes, line: line.number)
                // An event in any other field order or spelling goes the same way as a canonical
                // one, decoded in place: wrapped in an item, a consumer would make it whole.
                if takesEvents, case .event(let general) = decoded { return try event(general, line.number) }
            }
            try body(
                Item(
                    line: line.number, inPlace: decoded, bytes: line.bytes, part: .whole,
                    endsWithNewline: line.endsWithNewline))
        case .first:
            let diagnostic = Diagnostic(
                line: line.number, code: .lineTooLong,
                message: "the line is longer than \(limit) bytes, the most an event may be; not read as one")
            overlong = .other(RawFields.namesVersion(line.bytes) ? .invalid(diagnostic) : .text(diagnostic))
            try body(
                Item(line: line.number, inPlace: overlong, bytes: line.bytes, part: .first, endsWithNewline: false))
        case .middle, .last:
            try body(
                Item(
                    line: line.number, inPlace: overlong, bytes: line.bytes, part: line.part,
                    endsWithNewline: line.endsWithNewline))
        }
    }
}

extension EventStreamReader: Sendable where Source: Sendable {}
