package import ActivityWire

/// OpenTelemetry trace and span ids derived from activity ids, so the same recording always
/// gives the same trace, and a live export and a later export of its recording agree.
///
/// A trace is one top-level activity with everything under it: its trace id hashes the
/// top-level activity's id (ids carry a random 64-bit prefix per process, so runs do not
/// collide). A span id hashes the top-level activity's id and the activity's id. The hash is
/// 64-bit FNV-1a and a splitmix64 finalizer, twice with different seeds for the 128 bits of a
/// trace id; never all zeros (invalid in
/// OpenTelemetry).
package enum TraceIdentifiers {
    /// 32 lowercase hex digits.
    package static func traceID(root: ActivityID) -> String {
        let high = fnv1a("trace:" + root.rawValue, seed: 0xcbf2_9ce4_8422_2325)
        let low = fnv1a("trace:" + root.rawValue, seed: 0x8422_2325_cbf2_9ce4)
        return hex(high) + hex(low == 0 && high == 0 ? 1 : low)
    }

    /// 16 lowercase hex digits.
    package static func spanID(_ id: ActivityID, root: ActivityID) -> String {
        let value = fnv1a("span:" + root.rawValue + "\u{0}" + id.rawValue, seed: 0xcbf2_9ce4_8422_2325)
        return hex(value == 0 ? 1 : value)
    }

    private static func fnv1a(_ text: String, seed: UInt64) -> UInt64 {
        var hash = seed
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        // The splitmix64 finalizer: ids of similar activities (`demo.1`, `demo.2`) look unrelated.
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        return hash ^ (hash >> 31)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0, count: 16)
        for position in 0..<16 { out[15 - position] = digits[Int((value >> (4 * UInt64(position))) & 0xF)] }
        return String(decoding: out, as: UTF8.self)
    }
}
