/// Output held back while the overlay covers the screen: the newest `limit` bytes of it, in
/// order. Appending is constant time however many short lines arrive (the oldest are dropped by
/// moving a start index, not by shifting the array).
struct HeldOutput {
    let limit: Int
    private var lines: [[UInt8]] = []
    private var start = 0
    private(set) var byteCount = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// How many lines are held.
    var count: Int { lines.count - start }

    mutating func append(_ line: [UInt8]) {
        lines.append(line)
        byteCount += line.count
        while byteCount > limit, start < lines.count {
            byteCount -= lines[start].count
            lines[start] = []
            start += 1
        }
        if start > 4096, start * 2 > lines.count {
            lines.removeFirst(start)
            start = 0
        }
    }

    /// Everything held, in order; nothing is held afterwards.
    mutating func takeAll() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        for line in lines[start...] { bytes += line }
        lines.removeAll()
        start = 0
        byteCount = 0
        return bytes
    }
}
