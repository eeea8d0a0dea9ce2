import ActivityPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a ``WriteQueue`` keeps, in order, what must reach a stalled reader whole but no longer
/// fits in memory: an unlinked temporary file of records (a lane, a length, the bytes), read
/// back from the front as the reader catches up, and emptied once all is read.
///
/// A reference, shared by copies of its queue (which live behind one lock).
final class SpillFile: @unchecked Sendable {
    private let fd: Int32
    /// Where the next record is written, and where the oldest unread one starts.
    private var end = 0
    private var start = 0
    /// The bytes of the records not read back yet (their payloads, not their headers).
    private(set) var byteCount = 0

    /// A spill in a new temporary file, or `nil` when none can be made (the queue then keeps
    /// everything in memory, as it would without one).
    static func make() -> SpillFile? {
        guard case .success(let fd) = TemporaryFile.make(prefix: "activity-queue") else { return nil }
        return SpillFile(fd: fd)
    }

    private init(fd: Int32) { self.fd = fd }

    deinit { _ = SystemCall.close(fd) }

    var isEmpty: Bool { start == end }

    private static let headerSize = 8

    /// Appends a record; `false` when the file cannot take it (a full disk), and nothing of it
    /// was kept.
    func append(_ bytes: [UInt8], lane: Int) -> Bool {
        guard let lane = UInt32(exactly: lane), let length = UInt32(exactly: bytes.count) else { return false }
        var record = [UInt8]()
        record.reserveCapacity(Self.headerSize + bytes.count)
        for value in [lane, length] { withUnsafeBytes(of: value.littleEndian) { record.append(contentsOf: $0) } }
        record.append(contentsOf: bytes)
        // A record cut short is no record: the next append writes over it.
        guard record.withUnsafeBytes({ SystemCall.writeAll(fd, $0, at: end) }) == 0 else { return false }
        end += record.count
        byteCount += bytes.count
        return true
    }

    /// Reads back the oldest records, about `budget` bytes of them (at least one); empty when
    /// none is left or the file cannot be read.
    func takeFront(budget: Int) -> [(bytes: [UInt8], lane: Int)] {
        var taken: [(bytes: [UInt8], lane: Int)] = []
        var used = 0
        while start < end && (taken.isEmpty || used < budget) {
            // The file is this process's own: a read that fails (an I/O error) leaves the rest
            // unreadable, and it is let go rather than asked for again and again.
            guard let header = read(Self.headerSize, at: start),
                let bytes = read(Int(Self.word(header, 4)), at: start + Self.headerSize)
            else {
                start = end
                break
            }
            let lane = Int(Self.word(header, 0))
            let length = bytes.count
            start += Self.headerSize + length
            byteCount -= length
            used += length
            taken.append((bytes, lane))
        }
        if start == end {
            // All read: the file starts again from nothing, and gives its space back.
            start = 0
            end = 0
            byteCount = 0
            _ = ftruncate(fd, 0)
        }
        return taken
    }

    private func read(_ count: Int, at offset: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { raw in try? SystemCall.read(fd, into: raw, at: offset) }
        return read == count ? bytes : nil
    }

    private static func word(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
    }
}
