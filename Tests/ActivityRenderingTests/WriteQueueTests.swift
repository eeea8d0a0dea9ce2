import ActivityRendering
import Testing

@Suite("WriteQueue: what a stalled reader of the display has yet to get")
struct WriteQueueTests {
    /// Takes everything, as (text, destination) pairs.
    func takeAll(_ queue: inout WriteQueue) -> [(String, Int)] {
        var taken: [(String, Int)] = []
        while let chunk = queue.take() {
            taken.append((String(decoding: chunk.bytes, as: UTF8.self), chunk.destination))
        }
        return taken
    }

    func text(_ chunk: WriteQueue.Chunk?) -> String? {
        chunk.map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    @Test("chunks come out in the order given, across destinations")
    func order() {
        var queue = WriteQueue(capacity: 1024, noticeDestination: 2)
        queue.append(Array("one\n".utf8), to: 2, droppable: true)
        queue.append(Array("two".utf8), to: 1, droppable: false)
        queue.append(Array("three\n".utf8), to: 2, droppable: true)
        queue.append(Array(" and more\n".utf8), to: 1, droppable: false)
        let taken = takeAll(&queue)
        #expect(taken.map(\.0) == ["one\n", "two", "three\n", " and more\n"])
        #expect(taken.map(\.1) == [2, 1, 2, 1])
        #expect(queue.isEmpty && queue.byteCount == 0)
    }

    @Test("the producer's output is kept past the cap; the display's lines are not")
    func cap() {
        var queue = WriteQueue(capacity: 10, noticeDestination: 2)
        let first = queue.append(Array("aaa\n".utf8), to: 2, droppable: true)
        let second = queue.append(Array("bbb\n".utf8), to: 2, droppable: true)
        let third = queue.append(Array("ccc\n".utf8), to: 2, droppable: true)
        let output = queue.append(Array("output that is longer than the cap\n".utf8), to: 1, droppable: false)
        #expect(first && second)
        #expect(!third, "past the cap")
        #expect(output)
        #expect(queue.isBehind)
        #expect(queue.droppedLines == 1)
        #expect(queue.byteCount == 8 + 35)
    }

    @Test("dropped lines are told in one line where they were, once the queue has drained to half")
    func notice() {
        var queue = WriteQueue(capacity: 12, noticeDestination: 2)
        queue.append(Array("aaa\n".utf8), to: 2, droppable: true)
        queue.append(Array("bbb\n".utf8), to: 2, droppable: true)
        queue.append(Array("out\n".utf8), to: 1, droppable: false)
        queue.append(Array("ccc\n".utf8), to: 2, droppable: true)
        queue.append(Array("ddd\n".utf8), to: 2, droppable: true)
        #expect(queue.droppedLines == 2)
        let a = queue.take()
        #expect(text(a) == "aaa\n")
        // 8 of 12 bytes: still dropping, so the reader sees one gap, not one every other line.
        let stillDropping = !queue.append(Array("eee\n".utf8), to: 2, droppable: true)
        #expect(stillDropping)
        let b = queue.take()
        #expect(text(b) == "bbb\n")
        let accepted = queue.append(Array("fff\n".utf8), to: 2, droppable: true)
        #expect(accepted)
        let taken = takeAll(&queue)
        #expect(taken.map(\.0) == ["out\n", "3 lines of the display not shown\n", "fff\n"])
        #expect(taken.map(\.1) == [1, 2, 2])
    }

    @Test("with nothing else left, the notice comes last; one line is a line")
    func noticeAtTheEnd() {
        var queue = WriteQueue(capacity: 4, noticeDestination: 7)
        queue.append(Array("aaa\n".utf8), to: 2, droppable: true)
        queue.append(Array("bbb".utf8), to: 2, droppable: true)
        #expect(!queue.isEmpty)
        let taken = takeAll(&queue)
        #expect(taken.map(\.0) == ["aaa\n", "1 line of the display not shown\n"])
        #expect(taken.map(\.1) == [2, 7])
        #expect(queue.isEmpty)
        #expect(takeAll(&queue).isEmpty)
    }

    @Test("many chunks: taken ones are let go of, the order stays")
    func many() {
        var queue = WriteQueue(capacity: 1 << 20, noticeDestination: 0)
        var expected: [String] = []
        for round in 0..<5 {
            for index in 0..<3000 {
                let text = "\(round).\(index)\n"
                queue.append(Array(text.utf8), to: 0, droppable: index % 2 == 0)
                expected.append(text)
            }
            for _ in 0..<2000 { _ = queue.take() }
            expected.removeFirst(2000)
        }
        #expect(takeAll(&queue).map(\.0) == expected)
    }

    @Test("what is kept beyond the bound waits on disk, comes back in order, and memory stays bounded")
    func spill() {
        var queue = WriteQueue(capacity: 64, noticeDestination: 2)
        var expected: [(String, Int)] = []
        for index in 0..<2000 {
            let text = "event \(index)\n"
            queue.append(Array(text.utf8), to: index % 3 == 0 ? 1 : 2, droppable: false)
            expected.append((text, index % 3 == 0 ? 1 : 2))
        }
        #expect(queue.isSpilling)
        #expect(queue.byteCount == expected.reduce(0) { $0 + $1.0.utf8.count })
        // Read back in pieces of about half the bound: memory never holds much more than it.
        var taken: [(String, Int)] = []
        var largestInMemory = 0
        while let chunk = queue.take() {
            taken.append((String(decoding: chunk.bytes, as: UTF8.self), chunk.destination))
            largestInMemory = max(largestInMemory, queue.bytesInMemory)
            if taken.count == 1000 {
                // Arriving while the spill is read back, they go after it.
                queue.append(Array("late\n".utf8), to: 1, droppable: false)
                expected.append(("late\n", 1))
            }
        }
        #expect(taken.map(\.0) == expected.map(\.0))
        #expect(taken.map(\.1) == expected.map(\.1))
        #expect(largestInMemory <= 64 + 16)
        #expect(queue.isEmpty && !queue.isSpilling && queue.byteCount == 0)
    }

    @Test("a display line while the spill holds output waits its turn, or is dropped as the bound says")
    func displayLinesAfterSpill() {
        var queue = WriteQueue(capacity: 16, noticeDestination: 2)
        queue.append(Array("0123456789\n".utf8), to: 1, droppable: false)
        queue.append(Array("abcdefghij\n".utf8), to: 1, droppable: false)
        #expect(queue.isSpilling)
        let dropped = !queue.append(Array("shown?\n".utf8), to: 2, droppable: true)
        #expect(dropped, "22 bytes are queued, past the bound of 16")
        let taken = takeAll(&queue)
        #expect(taken.map(\.0) == ["0123456789\n", "abcdefghij\n", "1 line of the display not shown\n"])
    }
}
