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
        while true {
            cursor.skipWhitespace()
            guard let field = cursor.knownKey() else { return nil }
            let bit = UInt32(1) << UInt32(truncatingIfNeeded: field.rawValue)
            guard members.seen & bit == 0 else { return nil }
            members.seen |= bit
            guard cursor.read(field, into: &event, &members) else { return nil }
            cursor.skipWhitespace()
            guard let next = cursor.next() else { return nil }
            if next == UInt8(ascii: ",") { continue }
            guard next == UInt8(ascii: "}") else { return nil }
            break
        }
        cursor.skipWhitespace()
        // No line-wide UTF-8 check: every byte read outside a text is ASCII, and each text's
        // bytes were checked as it was read.
        guard cursor.atEnd, members.has(.v), let kind = members.kind, event.keep(kind, members) else { return nil }
        return event
    }

    /// What the event itself does not say about the members read so far.
    fileprivate struct Members {
        var seen: UInt32 = 0
        var kind: LineEvent.Kind?

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
        let count = bytes.count
        let left = count &- start
        let base = UnsafeRawPointer(bytes.baseAddress!)
        func word(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        if left >= 16 { return (word(start), word(start &+ 8)) }
        // Near the end of the line, the last eight bytes shifted down to where they belong
        // (a shift by 64 gives zero).
        if left >= 8 { return (word(start), word(count &- 8) >> UInt64(truncatingIfNeeded: (16 &- left) &* 8)) }
        if count >= 8 { return (word(count &- 8) >> UInt64(truncatingIfNeeded: (8 &- left) &* 8), 0) }
        var first: UInt64 = 0
        var i = 0
        while i < left {
            first |= UInt64(bytes[start &+ i]) << UInt64(truncatingIfNeeded: i &* 8)
            i &+= 1
        }
        return (first, 0)
    }

    /// Whether `words` start with the `length` bytes that `first` and `second` hold.
    @inline(__always)
    private static func starts(_ words: (UInt64, UInt64), _ length: Int, _ first: UInt64, _ second: UInt64 = 0) -> Bool
    {
        if length < 8 { return words.0 & ((1 << UInt64(length * 8)) - 1) == first }
        if length == 8 { return words.0 == first }
        return words.0 == first && words.1 & ((1 << UInt64((length - 8) * 8)) - 1) == second
    }

    /// The protocol key under the cursor (which stays on its opening quote: ``read(_:into:_:)``
    /// moves past it), when it is one this path reads and is written without escapes; `nil` for
    /// any other. Found without a branch on which key it is
    /// (keys come in any order, so such a branch would be mispredicted): the first eight bytes
    /// through the closing quote, hashed perfectly (``KeyEntry``), compared with the one key
    /// they can be.
    @inline(always)
    fileprivate mutating func knownKey() -> FieldName? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index &+ 1
        let (first, second) = words(at: start)
        // The bytes through the first quote; all eight when it is the last or there is none.
        let key = Self.through(first, Self.bitsThroughQuote(first))
        let entry = KeyEntry(slot: (key &* KeyEntry.multiplier) >> 59)
        guard key == entry.first, second & entry.restMask == entry.rest else { return nil }
        return entry.field
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

    /// Moves the cursor from a key's opening quote past the key, `length` bytes with its closing
    /// quote, and the colon after it. Each field's case calls it with its own length, so that
    /// where the cursor goes next depends on no load from memory: in a stream whose keys come in
    /// the same order on every line, the branch on the field is predicted, and so is the cursor.
    @inline(always)
    private mutating func afterKey(_ length: Int) -> Bool {
        index &+= length &+ 1
        guard consume(UInt8(ascii: ":")) else { return false }
        skipWhitespace()
        return true
    }

    /// Reads the key `field` under the cursor and its value into `event`; `false` for a value
    /// this path leaves to the general one.
    @inline(always)
    fileprivate mutating func read(
        _ field: FieldName, into event: inout LineEvent, _ members: inout AnyOrderFastPath.Members
    ) -> Bool {
        switch field {
        case .v:
            guard afterKey(2) else { return false }
            // `1` as written; `1.0`, `1e0` and newer versions are the general path's.
            guard index < bytes.count, bytes[index] == UInt8(ascii: "1") else { return false }
            index += 1
            guard index == bytes.count || !Self.isNumberByte(bytes[index]) else { return false }
        case .type:
            guard afterKey(5) else { return false }
            guard let kind = kindValue() else { return false }
            members.kind = kind
        case .ts:
            guard afterKey(3) else { return false }
            guard let value = count() else { return false }
            event.storedTimestamp = value
        case .completed:
            guard afterKey(10) else { return false }
            guard let value = count() else { return false }
            event.storedCompleted = value
        case .total:
            guard afterKey(6) else { return false }
            if skip("null") {
                event.storedTotal = -1
            } else {
                guard let value = count() else { return false }
                event.storedTotal = value
            }
        case .id:
            guard afterKey(3) else { return false }
            guard let id = plainID() else { return false }
            event.id = id
        case .parent:
            guard afterKey(7) else { return false }
            guard let id = plainID() else { return false }
            event.parent = id
        case .title:
            guard afterKey(6) else { return false }
            guard let text = anyText() else { return false }
            event.title = text
        case .unit:
            guard afterKey(5) else { return false }
            guard let text = anyText() else { return false }
            event.unit = text
        case .message:
            guard afterKey(8) else { return false }
            guard let text = anyText() else { return false }
            event.message = text
        case .error:
            guard afterKey(6) else { return false }
            guard let text = anyText() else { return false }
            event.error = text
        case .cancellable:
            guard afterKey(12) else { return false }
            if skip("true") {
                event.cancellable = true
            } else if !skip("false") {
                return false
            }
        case .blocking:
            guard afterKey(9) else { return false }
            guard let value = blocking() else { return false }
            event.blocking = value
        case .level:
            guard afterKey(6) else { return false }
            guard let value = level() else { return false }
            event.level = value
        case .status:
            guard afterKey(7) else { return false }
            guard let value = status() else { return false }
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

    /// Any string, its escapes and its UTF-8 checked, its escapes kept.
    @inline(always)
    private mutating func anyText() -> LineEvent.Text? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let scanned = scanText() else { return nil }
        return LineEvent.Text(range: scanned.range, escaped: scanned.escaped)
    }

    /// The byte under the cursor, consumed; `nil` at the end of the line.
    @inline(__always)
    fileprivate mutating func next() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index &+= 1 }
        return bytes[index]
    }

    /// The name under the cursor, quotes and all, when it is at most 15 bytes long: its bytes
    /// through the closing quote as two little-endian words (zeros after it), which an
    /// enumeration's names are compared with, and where it ends. A name with an escape matches
    /// none of them.
    @inline(__always)
    private func plainName() -> (first: UInt64, second: UInt64, end: Int)? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index &+ 1
        let (first, second) = words(at: start)
        let inFirst = Self.bitsThroughQuote(first)
        if inFirst <= 64 { return (Self.through(first, inFirst), 0, start &+ inFirst >> 3) }
        let inSecond = Self.bitsThroughQuote(second)
        guard inSecond <= 64 else { return nil }
        return (first, Self.through(second, inSecond), start &+ 8 &+ inSecond >> 3)
    }

    /// How many bits of the little-endian `word` run through its first quote byte; 65 when it
    /// has none. (The zero-byte test may mark bytes above the first quote wrongly, never below.)
    @inline(__always)
    private static func bitsThroughQuote(_ word: UInt64) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (0x22 &* ones)
        return ((quotes &- ones) & ~quotes & 0x8080_8080_8080_8080).trailingZeroBitCount &+ 1
    }

    /// The low `bits` bits of `word`: all of it for 64 or more (a shift by 64 or more gives zero).
    @inline(__always)
    private static func through(_ word: UInt64, _ bits: Int) -> UInt64 {
        word & ((1 << UInt64(truncatingIfNeeded: bits)) &- 1)
    }

    @inline(__always)
    private mutating func level() -> ActivityEvent.Level? {
        guard let name = plainName(), name.second == 0 else { return nil }
        let level: ActivityEvent.Level
        switch name.first {
        case 0x2267_7562_6564: level = .debug
        case 0x22_6F66_6E69: level = .info
        case 0x2267_6E69_6E72_6177: level = .warning
        case 0x2272_6F72_7265: level = .error
        default: return nil
        }
        index = name.end
        return level
    }

    @inline(__always)
    private mutating func status() -> ActivityEvent.Status? {
        guard let name = plainName() else { return nil }
        let status: ActivityEvent.Status
        switch (name.first, name.second) {
        case (0x2273_7365_6363_7573, 0): status = .success
        case (0x2265_7275_6C69_6166, 0): status = .failure
        case (0x656C_6C65_636E_6163, 0x2264): status = .cancelled
        case (0x2264_6570_7069_6B73, 0): status = .skipped
        case (0x656E_6F64_6E61_6261, 0x2264): status = .abandoned
        default: return nil
        }
        index = name.end
        return status
    }

    @inline(__always)
    private mutating func blocking() -> ActivityEvent.Blocking? {
        guard let name = plainName(), name.second == 0 else { return nil }
        let blocking: ActivityEvent.Blocking
        switch name.first {
        case 0x22_656E_6F6E: blocking = .none
        case 0x226B_636F_6C62: blocking = .block
        case 0x226D_6964: blocking = .dim
        default: return nil
        }
        index = name.end
        return blocking
    }
}

/// One protocol key as ``JSONScanner/knownKey()`` finds it: the perfect hash of its first eight
/// bytes through its closing quote (little-endian, zeros after the quote) is its slot.
private struct KeyEntry {
    /// Gives each of the keys' words a slot of its own among 32 (found by trying).
    static let multiplier: UInt64 = 0xC057_01B1_9397_E557

    /// The key's first eight bytes through its quote.
    var first: UInt64
    /// Its bytes after the first eight, through the quote, and which bytes of the next word
    /// those are.
    var rest: UInt64 = 0
    var restMask: UInt64 = 0
    var field: FieldName

    @inline(__always)
    init(slot: UInt64) {
        switch slot {
        case 6: self.init(first: 0x2276, field: .v)
        case 3: self.init(first: 0x22_6469, field: .id)
        case 14: self.init(first: 0x22_7374, field: .ts)
        case 21: self.init(first: 0x22_6570_7974, field: .type)
        case 1: self.init(first: 0x22_7469_6E75, field: .unit)
        case 29: self.init(first: 0x2265_6C74_6974, field: .title)
        case 11: self.init(first: 0x226C_6174_6F74, field: .total)
        case 23: self.init(first: 0x226C_6576_656C, field: .level)
        case 8: self.init(first: 0x2272_6F72_7265, field: .error)
        case 20: self.init(first: 0x22_746E_6572_6170, field: .parent)
        case 2: self.init(first: 0x22_7375_7461_7473, field: .status)
        case 26: self.init(first: 0x2265_6761_7373_656D, field: .message)
        case 9: self.init(first: 0x676E_696B_636F_6C62, rest: 0x22, restMask: 0xFF, field: .blocking)
        case 30:
            self.init(first: 0x6574_656C_706D_6F63, rest: 0x2264, restMask: 0xFFFF, field: .completed)
        case 24:
            self.init(
                first: 0x616C_6C65_636E_6163, rest: 0x2265_6C62, restMask: 0xFFFF_FFFF, field: .cancellable)
        // No key: a rest that no masked word equals.
        default: self.init(first: 0, rest: 1, restMask: 0, field: .attrs)
        }
    }

    @inline(__always)
    private init(first: UInt64, rest: UInt64 = 0, restMask: UInt64 = 0, field: FieldName) {
        self.first = first
        self.rest = rest
        self.restMask = restMask
        self.field = field
    }
}
