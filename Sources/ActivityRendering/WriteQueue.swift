/// The bytes a ``BackgroundWriter`` has yet to write, in the order given, bounded in memory.
///
/// What is not `droppable` (``append(_:to:droppable:)``: the producer's output, the lines of a
/// JSON-lines display, which are a recording) is always kept, whatever the queue holds; the
/// producer's writer stops reading the producer meanwhile (``isBehind``). Beyond ``capacity``
/// bytes in memory, what is kept waits in a ``SpillFile`` and is read back in turn, so a reader
/// that stalls for as long as it likes costs disk, not memory, and loses nothing. A line
/// of the display's own that comes while the queue is past ``capacity`` is dropped and counted;
/// lines are dropped until the queue has drained to half, so that a reader catching up sees one
/// gap, not one every few lines. The gap is then told in one line (``notice(_:)``) where the
/// dropped lines would have been, before the next line, or once the queue is empty.
///
/// ```swift
/// var queue = WriteQueue(capacity: 1 << 20, noticeDestination: 2)
/// queue.append(Array("line\n".utf8), to: 2, droppable: true)
/// queue.take()   // (bytes: "line\n", destination: 2)
/// ```
///
/// Not thread-safe: its writer keeps it behind a lock.
package struct WriteQueue {
    /// An output, by its lane in the writer.
    package typealias Destination = Int

    /// One write to make: `bytes` for `destination`.
    package struct Chunk {
        package var bytes: [UInt8]
        package var destination: Destination
    }

    /// Display lines that come while this many bytes are queued are dropped.
    package let capacity: Int
    /// Where the line telling of dropped lines goes.
    package let noticeDestination: Destination
    private var chunks: [Chunk] = []
    /// The index of the oldest chunk in `chunks` (taken ones before it are cleared in batches).
    private var head = 0
    /// The bytes of the chunks not taken yet, in memory and in the spill.
    package private(set) var byteCount = 0
    /// The part of ``byteCount`` in memory.
    package private(set) var bytesInMemory = 0
    /// Where kept chunks wait beyond ``capacity``: made when first needed; while it holds
    /// anything, every chunk goes after it, so the order stays.
    private var spill: SpillFile?
    /// Whether the spill could not be made or written: everything then stays in memory.
    private var spillFailed = false
    /// Chunks that come after what the spill holds, when it could take no more (a full disk).
    private var afterSpill: [Chunk] = []
    /// Lines dropped since the last notice.
    package private(set) var droppedLines = 0
    /// Set from the first dropped line until the queue has drained to half.
    private var dropping = false

    package init(capacity: Int, noticeDestination: Destination) {
        self.capacity = capacity
        self.noticeDestination = noticeDestination
    }

    /// Whether nothing is waiting (the notice of dropped lines included).
    package var isEmpty: Bool { head == chunks.count && spill?.isEmpty != false && droppedLines == 0 }

    /// Whether some of what is queued waits on disk.
    package var isSpilling: Bool { spill?.isEmpty == false }

    /// Whether more than half of ``capacity`` is queued: the producer's output should wait.
    package var isBehind: Bool { byteCount > capacity / 2 }

    /// Queues `bytes` for `destination`; a `droppable` line of the display's own is dropped when
    /// the queue is full (see the type). Returns whether the bytes were queued.
    @discardableResult
    package mutating func append(_ bytes: [UInt8], to destination: Destination, droppable: Bool) -> Bool {
        guard !bytes.isEmpty else { return true }
        if droppable {
            if (dropping && byteCount > capacity / 2) || (!dropping && byteCount + bytes.count > capacity) {
                dropping = true
                droppedLines += Self.lines(in: bytes)
                return false
            }
            queueNotice()
        }
        push(Chunk(bytes: bytes, destination: destination), kept: !droppable)
        return true
    }

    /// The oldest chunk, removed from the queue; the notice of dropped lines once nothing else
    /// is left; `nil` when the queue is empty.
    package mutating func take() -> Chunk? {
        if head == chunks.count, let spill, !spill.isEmpty {
            let before = spill.byteCount
            chunks.removeAll(keepingCapacity: true)
            head = 0
            for record in spill.takeFront(budget: capacity / 2) {
                chunks.append(Chunk(bytes: record.bytes, destination: record.lane))
                bytesInMemory += record.bytes.count
            }
            // What an I/O error left unreadable is counted out, not waited for.
            byteCount -= before - spill.byteCount - chunks.reduce(0) { $0 + $1.bytes.count }
            if spill.isEmpty {
                chunks += afterSpill
                afterSpill.removeAll()
            }
        }
        if head == chunks.count { queueNotice() }
        guard head < chunks.count else { return nil }
        let chunk = chunks[head]
        head += 1
        byteCount -= chunk.bytes.count
        bytesInMemory -= chunk.bytes.count
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 && head * 2 >= chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
        return chunk
    }

    /// `N lines of the display not shown`, a line.
    package static func notice(_ lines: Int) -> [UInt8] {
        Array((noticeText(lines) + "\n").utf8)
    }

    /// `N lines of the display not shown`, the text (the live display's line says the same).
    package static func noticeText(_ lines: Int) -> String {
        "\(lines) \(lines == 1 ? "line" : "lines") of the display not shown"
    }

    private mutating func queueNotice() {
        dropping = false
        guard droppedLines > 0 else { return }
        let notice = Self.notice(droppedLines)
        droppedLines = 0
        push(Chunk(bytes: notice, destination: noticeDestination), kept: true)
    }

    /// Queues a chunk in memory, or after what the spill holds; a `kept` one goes to the spill
    /// when memory is full.
    private mutating func push(_ chunk: Chunk, kept: Bool) {
        byteCount += chunk.bytes.count
        if isSpilling {
            if afterSpill.isEmpty, spill!.append(chunk.bytes, lane: chunk.destination) { return }
            // The disk is full: memory keeps it, after what the spill holds.
            afterSpill.append(chunk)
            bytesInMemory += chunk.bytes.count
            return
        }
        // Memory takes at least one chunk, however large: what it holds is written first.
        let fits = bytesInMemory == 0 || bytesInMemory + chunk.bytes.count <= capacity
        if kept && !fits && !spillFailed {
            if spill == nil { spill = SpillFile.make() }
            if let spill, spill.append(chunk.bytes, lane: chunk.destination) { return }
            spillFailed = true
        }
        bytesInMemory += chunk.bytes.count
        chunks.append(chunk)
    }

    /// The lines `bytes` holds: its newlines, and one for an unfinished last line.
    private static func lines(in bytes: [UInt8]) -> Int {
        var count = 0
        for byte in bytes where byte == 0x0A { count += 1 }
        return bytes.last == 0x0A ? count : count + 1
    }
}

extension WriteQueue.Chunk: Sendable {}
extension WriteQueue: Sendable {}
