import ActivityPOSIX

/// Output held back while the overlay covers the screen: the newest `limit` bytes of it, in
/// order, whole lines (a ``BoundedQueue``, so appending is constant time however many short
/// lines arrive).
struct HeldOutput {
    private var lines: BoundedQueue<[UInt8]>

    init(limit: Int) {
        lines = BoundedQueue(maxWeight: limit)
    }

    /// How many lines are held.
    var count: Int { lines.count }
    /// How many bytes are held.
    var byteCount: Int { lines.weight }

    mutating func append(_ line: [UInt8]) {
        lines.append(line, weight: line.count)
    }

    /// Everything held, in order; nothing is held afterwards.
    mutating func takeAll() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        for line in lines.removeAll() { bytes += line }
        return bytes
    }
}
