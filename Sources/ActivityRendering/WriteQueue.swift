/// The bytes a ``BackgroundWriter`` has yet to write, in the order given, bounded for the
/// display's own lines.
///
/// The producer's output (``append(_:to:droppable:)`` with `droppable: false`) is always kept,
/// whatever the queue holds: its writer stops reading the producer instead (``isBehind``). A line
/// of the display's own that comes while the queue is past ``capacity`` is dropped and counted;
/// lines are dropped until the queue has drained to half, so that a reader catching up sees one
/// gap, not one every few lines. The gap is then told in one line (``notice(_:)``) where the
/// dropped lines would have been, before the next line, or once the queue is empty.
///
/// ```swift
/// var queue = WriteQueue<Int>(capacity: 1 << 20)
/// queue.append(Array("line\n".utf8), to: 2, droppable: true)
/// queue.take()   // (bytes: "line\n", destination: 2)
/// ```
///
/// Not thread-safe: its writer keeps it behind a lock.
package struct WriteQueue<Destination> {
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
    /// The bytes of the chunks not taken yet.
    package private(set) var byteCount = 0
    /// Lines dropped since the last notice.
    package private(set) var droppedLines = 0
    /// Set from the first dropped line until the queue has drained to half.
    private var dropping = false

    package init(capacity: Int, noticeDestination: Destination) {
        self.capacity = capacity
        self.noticeDestination = noticeDestination
    }

    /// Whether nothing is waiting (the notice of dropped lines included).
    package var isEmpty: Bool { head == chunks.count && droppedLines == 0 }

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
        push(Chunk(bytes: bytes, destination: destination))
        return true
    }

    /// The oldest chunk, removed from the queue; the notice of dropped lines once nothing else
    /// is left; `nil` when the queue is empty.
    package mutating func take() -> Chunk? {
        if head == chunks.count { queueNotice() }
        guard head < chunks.count else { return nil }
        let chunk = chunks[head]
        head += 1
        byteCount -= chunk.bytes.count
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
        push(Chunk(bytes: notice, destination: noticeDestination))
    }

    private mutating func push(_ chunk: Chunk) {
        byteCount += chunk.bytes.count
        chunks.append(chunk)
    }

    /// The lines `bytes` holds: its newlines, and one for an unfinished last line.
    private static func lines(in bytes: [UInt8]) -> Int {
        var count = 0
        for byte in bytes where byte == 0x0A { count += 1 }
        return bytes.last == 0x0A ? count : count + 1
    }
}

extension WriteQueue.Chunk: Sendable where Destination: Sendable {}
extension WriteQueue: Sendable where Destination: Sendable {}
