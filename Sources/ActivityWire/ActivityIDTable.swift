/// Interns activity ids: from an id's bytes, as they stand in the line, to the slot of
/// ``ConsumerFold`` that holds the activity.
///
/// Open addressing with linear probing over one array of packed entries (32 bits of the hash,
/// the slot + 1; 0 is empty), removal by backward shift (no tombstones, so probe runs stay
/// short under churn). The hash reads the id eight bytes at a time, seeded per table so that a
/// producer cannot aim ids at one bucket. The table does not hold the ids: the fold compares
/// candidates against the id in the slot.
@usableFromInline
struct ActivityIDTable: Sendable {
    @usableFromInline var entries: [UInt64]
    @usableFromInline var mask: Int
    @usableFromInline var count = 0
    @usableFromInline let seed: UInt64

    @usableFromInline
    init() {
        entries = Array(repeating: 0, count: 64)
        mask = 63
        seed = UInt64.random(in: .min ... .max) | 1
    }

    /// The hash of an id's bytes.
    @inlinable @inline(__always)
    func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = bytes.count
        var hash = seed ^ (UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15)
        guard let base = bytes.baseAddress else { return Self.finish(hash) }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= count {
            hash = Self.mix(hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        if offset < count {
            var tail: UInt64 = 0
            if count >= 8 {
                // The last eight bytes, overlapping what was read: one load instead of a loop.
                tail = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            } else {
                for index in offset..<count { tail = tail << 8 | UInt64(base[index]) }
            }
            hash = Self.mix(hash ^ tail)
        }
        return Self.finish(hash)
    }

    @inlinable @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        let product = value &* 0xBF58_476D_1CE4_E5B9
        return product ^ (product >> 31)
    }

    @inlinable @inline(__always)
    static func finish(_ value: UInt64) -> UInt64 {
        var value = value ^ (value >> 29)
        value = value &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 32)
    }

    /// Where a lookup stands: the next index to look at, and the hash's tag.
    @usableFromInline
    struct Probe {
        @usableFromInline var index: Int
        @usableFromInline let tag: UInt64

        @inlinable @inline(__always)
        init(index: Int, tag: UInt64) {
            self.index = index
            self.tag = tag
        }
    }

    /// A lookup of the id with `hash`: ``next(_:)`` hands out the slots whose entries match the
    /// hash, for the caller to compare ids. (No closure: one over the store would copy it.)
    @inlinable @inline(__always)
    func probe(hash: UInt64) -> Probe {
        Probe(index: Int(truncatingIfNeeded: hash) & mask, tag: UInt64(UInt32(truncatingIfNeeded: hash)) << 32)
    }

    /// The next candidate slot, or `nil` when the id is not held.
    @inlinable @inline(__always)
    func next(_ probe: inout Probe) -> Int? {
        while true {
            let entry = entries[probe.index]
            if entry == 0 { return nil }
            probe.index = (probe.index + 1) & mask
            if entry & 0xFFFF_FFFF_0000_0000 == probe.tag { return Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1 }
        }
    }

    /// Adds an id that is not held, with `hash`, for `slot`.
    @usableFromInline
    mutating func insert(hash: UInt64, slot: Int) {
        if (count + 1) * 2 > entries.count { grow() }
        place(Self.entry(hash: hash, slot: slot))
        count += 1
    }

    /// Removes the id with `hash` held for `slot`.
    @usableFromInline
    mutating func remove(hash: UInt64, slot: Int) {
        let wanted = Self.entry(hash: hash, slot: slot)
        var hole = Int(truncatingIfNeeded: hash) & mask
        while entries[hole] != wanted {
            guard entries[hole] != 0 else { return }
            hole = (hole + 1) & mask
        }
        count -= 1
        // Backward shift: move later entries of the run into the hole when their home allows.
        var next = hole
        while true {
            next = (next + 1) & mask
            let entry = entries[next]
            if entry == 0 { break }
            let home = Int(truncatingIfNeeded: entry >> 32) & mask
            // The entry may fill the hole when its home is not in (hole, next], cyclically.
            let between = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
            if !between {
                entries[hole] = entry
                hole = next
            }
        }
        entries[hole] = 0
    }

    private static func entry(hash: UInt64, slot: Int) -> UInt64 {
        UInt64(UInt32(truncatingIfNeeded: hash)) << 32 | UInt64(slot + 1)
    }

    private mutating func place(_ entry: UInt64) {
        var index = Int(truncatingIfNeeded: entry >> 32) & mask
        while entries[index] != 0 { index = (index + 1) & mask }
        entries[index] = entry
    }

    private mutating func grow() {
        let old = entries
        entries = Array(repeating: 0, count: old.count * 2)
        mask = entries.count - 1
        for entry in old where entry != 0 { place(entry) }
    }
}
