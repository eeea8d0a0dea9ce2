import Testing

@testable import ActivityPOSIX

/// The one bounded queue: the newest kept within a count and a weight, in order.
@Suite("BoundedQueue: the newest kept, in order, within bounds")
struct BoundedQueueTests {
    @Test("past the count, the oldest go; what is taken is in order")
    func count() {
        var queue = BoundedQueue<Int>(maxCount: 3)
        for value in 1...5 { queue.append(value) }
        #expect(queue.count == 3 && queue.dropped == 2)
        #expect(queue.removeFirst(2) == [3, 4])
        #expect(queue.removeAll() == [5])
        #expect(queue.isEmpty && queue.weight == 0 && queue.dropped == 2, "taking is not dropping")
    }

    @Test("past the weight, the oldest go; one element heavier than the bound goes too")
    func weight() {
        var queue = BoundedQueue<String>(maxWeight: 10)
        #expect(queue.append("abcd", weight: 4) == 0)
        #expect(queue.append("efgh", weight: 4) == 0)
        #expect(queue.append("ijkl", weight: 4) == 1)
        #expect(queue.weight == 8 && queue.removeAll() == ["efgh", "ijkl"])
        #expect(queue.append("far too heavy", weight: 13) == 1)
        #expect(queue.isEmpty && queue.weight == 0)
    }

    @Test("the newest grows in place, and the bound holds after it grows")
    func updateLast() {
        var queue = BoundedQueue<[UInt8]>(maxWeight: 6)
        #expect(queue.updateLast(addingWeight: 1) { $0.append(0) } == 0, "nothing to change")
        queue.append([1, 2], weight: 2)
        queue.append([3], weight: 1)
        #expect(queue.updateLast(addingWeight: 2) { $0 += [4, 5] } == 0)
        #expect(queue.last == [3, 4, 5] && queue.weight == 5)
        #expect(queue.updateLast(addingWeight: 2) { $0 += [6, 7] } == 1)
        #expect(queue.removeAll() == [[3, 4, 5, 6, 7]])
    }

    @Test("an offset from the front, and taking through it")
    func firstOffset() {
        var queue = BoundedQueue<Int>()
        for value in [10, 20, 30, 20] { queue.append(value) }
        #expect(queue.firstOffset { $0 == 20 } == 1)
        #expect(queue.firstOffset { $0 == 99 } == nil)
        #expect(queue.removeFirst(2) == [10, 20])
        #expect(queue.firstOffset { $0 == 20 } == 1)
        #expect(queue.removeFirst(10) == [30, 20], "fewer than asked when fewer are held")
        #expect(queue.removeFirst(-1) == [])
    }

    @Test("a long stream through a small bound keeps the newest, in order")
    func longStream() {
        var queue = BoundedQueue<Int>(maxCount: 100)
        for value in 0..<100_000 { queue.append(value) }
        #expect(queue.count == 100 && queue.dropped == 99_900)
        #expect(queue.removeAll() == Array(99_900..<100_000))
    }
}
