/// Event lines as other producers write them: the protocol's keys in any order, with any JSON
/// whitespace, texts with escapes, counts in any number form. Decoded in one pass straight into a
/// ``LineEvent``, with no table of raw fields and no second pass over them: what makes Python's
/// `json.dumps(sort_keys=True)`, a producer's own dict order or shuffled keys decode about as
/// fast as the canonical form ``CanonicalFastPath`` takes.
///
/// Like the canonical path it only ever says yes: any key it does not know (`attrs`, a
/// producer's own), a key written twice or with an escape, an id or an enumeration with an
/// escape, a value of a type it does not expect, a `v` other than `1`, or anything that is not
/// valid JSON sends the line to the general path, which then decides exactly as it would have.
/// So it changes the speed of decoding, never its result (`FieldOrderTests`, `FastPathTests`).
enum AnyOrderFastPath {
    static func event(_ bytes: UnsafeBufferPointer<UInt8>) -> LineEvent? {
        var cursor = JSONScanner(bytes)
        guard cursor.consume(UInt8(ascii: "{")) else { return nil }
        // Read straight into the event; which members its kind keeps is settled at the end,
        // since `type` may come last.
        var event = LineEvent(bytes: bytes, kind: .progress, timestamp: nil)
        var members = Members()
        repeat {
            cursor.skipWhitespace()
            guard let field = cursor.knownKey() else { return nil }
            let bit = UInt32(1) << UInt32(truncatingIfNeeded: field.rawValue)
            guard members.seen & bit == 0, cursor.consume(UInt8(ascii: ":")) else { return nil }
            members.seen |= bit
            cursor.skipWhitespace()
            guard cursor.read(field, into: &event, &members) else { return nil }
        } while cursor.consume(UInt8(ascii: ","))
        guard cursor.consume(UInt8(ascii: "}")) else { return nil }
        cursor.skipWhitespace()
        guard cursor.atEnd, members.has(.v), let kind = members.kind, event.keep(kind, members) else { return nil }
        // The general path refuses a line that is not UTF-8 before reading it; only texts can
        // hold other bytes than ASCII here.
        if members.hasText, !UTF8Validation.isValid(bytes) { return nil }
        return event
    }

    /// What the event itself does not say about the members read so far.
    fileprivate struct Members {
        var seen: UInt32 = 0
        var kind: LineEvent.Kind?
        /// Whether a text was read.
        var hasText = false

        @inline(__always)
        func has(_ field: FieldName) -> Bool { seen & (UInt32(1) << UInt32(truncatingIfNeeded: field.rawValue)) != 0 }
    }
}

extension LineEvent {
    /// Makes this the event of `kind`: the members that kind reads (as ``FieldReader`` reads
    /// them) kept, the others cleared. `false` when a member it requires is missing.
    @inline(__always)
    fileprivate mutating func keep(_ kind: Kind, _ members: AnyOrderFastPath.Members) -> Bool {
        self.kind = kind
        switch kind {
        case .begin:
            guard members.has(.id), members.has(.title) else { return false }
            if completed == nil { completed = 0 }
            texts.error = PackedText()
            level = .info
            status = .success
        case .progress:
            guard members.has(.id) else { return false }
            texts.parent = PackedText()
            texts.unit = PackedText()
            texts.error = PackedText()
            cancellable = false
            blocking = .none
            level = .info
            status = .success
        case .log:
            guard members.has(.message) else { return false }
            texts.parent = PackedText()
            texts.title = PackedText()
            texts.unit = PackedText()
            texts.error = PackedText()
            storedTotal = .nan
            storedCompleted = .nan
            cancellable = false
            blocking = .none
            status = .success
        case .end:
            guard members.has(.id) else { return false }
            texts.parent = PackedText()
            texts.title = PackedText()
            texts.unit = PackedText()
            cancellable = false
            blocking = .none
            level = .info
        }
        return true
    }
}

extension JSONScanner {
    /// The 16 bytes from `start` on as two little-endian words, zeros past the end of the line
    /// (which no word compared with them holds where a key or a name must have its quote).
    @inline(__always)
    private func words(at start: Int) -> (UInt64, UInt64) {
        let left = bytes.count - start
        if left >= 16 {
            let raw = UnsafeRawPointer(bytes.baseAddress! + start)
            return (
                UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)),
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
        var first: UInt64 = 0
        var second: UInt64 = 0
        var i = 0
        while i < left {
            let byte = UInt64(bytes[start + i])
            if i < 8 { first |= byte << UInt64(i * 8) } else { second |= byte << UInt64((i - 8) * 8) }
            i += 1
        }
        return (first, second)
    }

    /// Whether `words` start with the `length` bytes that `first` and `second` hold.
    @inline(__always)
    private static func starts(_ words: (UInt64, UInt64), _ length: Int, _ first: UInt64, _ second: UInt64 = 0) -> Bool
    {
        if length < 8 { return words.0 & ((1 << UInt64(length * 8)) - 1) == first }
        if length == 8 { return words.0 == first }
        return words.0 == first && words.1 & ((1 << UInt64((length - 8) * 8)) - 1) == second
    }

    /// The protocol key under the cursor, quotes and all, when it is one this path reads and is
    /// written without escapes; `nil` for any other.
    @inline(__always)
    fileprivate mutating func knownKey() -> FieldName? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        let words = words(at: start)
        @inline(__always) func key(
            _ field: FieldName, _ length: Int, _ first: UInt64, _ second: UInt64 = 0
        )
            -> FieldName?
        {
            guard Self.starts(words, length, first, second) else { return nil }
            index = start + length
            return field
        }
        // Each key with its closing quote, as little-endian words: `id"` is 0x22_64_69.
        switch UInt8(truncatingIfNeeded: words.0) {
        case UInt8(ascii: "v"): return key(.v, 2, 0x2276)
        case UInt8(ascii: "i"): return key(.id, 3, 0x22_6469)
        case UInt8(ascii: "t"):
            return key(.ts, 3, 0x22_7374) ?? key(.type, 5, 0x22_6570_7974) ?? key(.title, 6, 0x2265_6c74_6974)
                ?? key(.total, 6, 0x226c_6174_6f74)
        case UInt8(ascii: "c"):
            return key(.completed, 10, 0x6574_656c_706d_6f63, 0x2264)
                ?? key(.cancellable, 12, 0x616c_6c65_636e_6163, 0x2265_6c62)
        case UInt8(ascii: "m"): return key(.message, 8, 0x2265_6761_7373_656d)
        case UInt8(ascii: "p"): return key(.parent, 7, 0x22_746e_6572_6170)
        case UInt8(ascii: "u"): return key(.unit, 5, 0x22_7469_6e75)
        case UInt8(ascii: "s"): return key(.status, 7, 0x22_7375_7461_7473)
        case UInt8(ascii: "l"): return key(.level, 6, 0x226c_6576_656c)
        case UInt8(ascii: "e"): return key(.error, 6, 0x2272_6f72_7265)
        case UInt8(ascii: "b"): return key(.blocking, 9, 0x676e_696b_636f_6c62, 0x22)
        default: return nil
        }
    }

    /// The event type under the cursor, quotes and all.
    @inline(__always)
    private mutating func kindValue() -> LineEvent.Kind? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        let words = words(at: start)
        let kind: LineEvent.Kind
        let length: Int
        if Self.starts(words, 9, 0x7373_6572_676f_7270, 0x22) {  // progress"
            (kind, length) = (.progress, 9)
        } else if Self.starts(words, 6, 0x226e_6967_6562) {  // begin"
            (kind, length) = (.begin, 6)
        } else if Self.starts(words, 4, 0x2264_6e65) {  // end"
            (kind, length) = (.end, 4)
        } else if Self.starts(words, 4, 0x2267_6f6c) {  // log"
            (kind, length) = (.log, 4)
        } else {
            return nil
        }
        index = start + length
        return kind
    }

    /// Reads the value of `field` under the cursor into `event`; `false` for a value this path
    /// leaves to the general one.
    @inline(__always)
    fileprivate mutating func read(
        _ field: FieldName, into event: inout LineEvent, _ members: inout AnyOrderFastPath.Members
    ) -> Bool {
        switch field {
        case .v:
            // `1` as written; `1.0`, `1e0` and newer versions are the general path's.
            guard index < bytes.count, bytes[index] == UInt8(ascii: "1") else { return false }
            index += 1
            guard index == bytes.count || !Self.isNumberByte(bytes[index]) else { return false }
        case .type:
            guard let kind = kindValue() else { return false }
            members.kind = kind
        case .ts:
            guard let value = count() else { return false }
            event.storedTimestamp = value
        case .completed:
            guard let value = count() else { return false }
            event.storedCompleted = value
        case .total:
            if skip("null") {
                event.storedTotal = -1
            } else {
                guard let value = count() else { return false }
                event.storedTotal = value
            }
        case .id:
            guard let id = plainID() else { return false }
            event.id = id
        case .parent:
            guard let id = plainID() else { return false }
            event.parent = id
        case .title:
            guard let text = anyText(&members.hasText) else { return false }
            event.title = text
        case .unit:
            guard let text = anyText(&members.hasText) else { return false }
            event.unit = text
        case .message:
            guard let text = anyText(&members.hasText) else { return false }
            event.message = text
        case .error:
            guard let text = anyText(&members.hasText) else { return false }
            event.error = text
        case .cancellable:
            if skip("true") {
                event.cancellable = true
            } else if !skip("false") {
                return false
            }
        case .blocking:
            guard let value = plainEnumeration(ActivityEvent.Blocking.self) else { return false }
            event.blocking = value
        case .level:
            guard let value = plainEnumeration(ActivityEvent.Level.self) else { return false }
            event.level = value
        case .status:
            guard let value = plainEnumeration(ActivityEvent.Status.self) else { return false }
            event.status = value
        case .attrs:
            return false
        }
        return true
    }

    @inline(__always)
    private static func isNumberByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e")
    }

    /// Any string, its escapes checked and kept.
    @inline(__always)
    private mutating func anyText(_ hasText: inout Bool) -> LineEvent.Text? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let scanned = try? scanString() else {
            return nil
        }
        hasText = true
        return LineEvent.Text(range: scanned.range, escaped: scanned.escaped)
    }

    /// One of the enumeration's names, written without escapes.
    @inline(__always)
    private mutating func plainEnumeration<E: RawRepresentable & CaseIterable>(_: E.Type) -> E?
    where E.RawValue == String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
        let written = UnsafeBufferPointer(rebasing: bytes[start..<end])
        for candidate in E.allCases {
            var name = candidate.rawValue
            if name.withUTF8({ $0.elementsEqual(written) }) {
                index = end + 1
                return candidate
            }
        }
        return nil
    }
}
