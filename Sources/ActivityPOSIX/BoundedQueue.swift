/// A first-in, first-out queue that keeps the newest of what it is given: past `maxCount`
/// elements, or `maxWeight` of their weights (bytes, say), the oldest are dropped.
///
/// Appending, dropping and taking from the front cost constant time (amortized): the front moves
/// a start index, a dropped element's storage is let go at once, and the array is compacted now
/// and then, never shifted per element. Not thread-safe: a caller that shares one holds it in a
/// `Mutex`.
///
/// ```swift
/// var held = BoundedQueue<[UInt8]>(maxWeight: 1 << 20)
/// held.append(line, weight: line.count)   // the oldest lines go once a mebibyte is held
/// let all = held.removeAll()
/// ```
package struct BoundedQueue<Element> {
    /// The most elements kept.
    package let maxCount: Int
    /// The most weight kept; an element heavier than this alone is dropped too.
    package let maxWeight: Int
    /// The elements' weights, summed.
    package private(set) var weight = 0
    /// How many elements were dropped to keep within the bounds, since the queue was made.
    package private(set) var dropped = 0

    private var storage: [(element: Element?, weight: Int)] = []
    private var start = 0

    package init(maxCount: Int = .max, maxWeight: Int = .max) {
        self.maxCount = maxCount
        self.maxWeight = maxWeight
    }

    package var count: Int { storage.count - start }
    package var isEmpty: Bool { count == 0 }

    /// Adds `element` at the back, then drops from the front while a bound is passed.
    /// - Returns: how many elements were dropped.
    @discardableResult
    package mutating func append(_ element: Element, weight: Int = 1) -> Int {
        storage.append((element, weight))
        self.weight += weight
        return keepWithinBounds()
    }

    /// Changes the newest element in place (a line that grows), `addedWeight` heavier, then drops
    /// from the front while a bound is passed. Nothing happens on an empty queue.
    /// - Returns: how many elements were dropped.
    @discardableResult
    package mutating func updateLast(addingWeight addedWeight: Int, _ change: (inout Element) -> Void) -> Int {
        guard !isEmpty else { return 0 }
        let last = storage.count - 1
        change(&storage[last].element!)
        storage[last].weight += addedWeight
        weight += addedWeight
        return keepWithinBounds()
    }

    /// The newest element.
    package var last: Element? { isEmpty ? nil : storage[storage.count - 1].element }

    /// How far from the front the first element that satisfies `predicate` is (0 is the oldest).
    package func firstOffset(where predicate: (Element) -> Bool) -> Int? {
        storage[start...].firstIndex { predicate($0.element!) }.map { $0 - start }
    }

    /// Takes the `count` oldest elements (fewer when fewer are held), in order.
    package mutating func removeFirst(_ count: Int) -> [Element] {
        let end = start + min(max(count, 0), self.count)
        let taken = storage[start..<end].map { $0.element! }
        while start < end { releaseFirst() }
        compactIfWorthIt()
        return taken
    }

    /// Takes every element, in order; the queue is empty afterwards.
    package mutating func removeAll() -> [Element] {
        let taken = storage[start...].map { $0.element! }
        storage.removeAll()
        start = 0
        weight = 0
        return taken
    }

    private mutating func keepWithinBounds() -> Int {
        var dropped = 0
        while !isEmpty && (count > maxCount || weight > maxWeight) {
            releaseFirst()
            dropped += 1
        }
        self.dropped += dropped
        compactIfWorthIt()
        return dropped
    }

    private mutating func releaseFirst() {
        weight -= storage[start].weight
        storage[start] = (nil, 0)
        start += 1
    }

    /// Moves the live elements to the front once the released ones are many and most of the
    /// storage: each element is moved a bounded number of times on average.
    private mutating func compactIfWorthIt() {
        if start == storage.count {
            storage.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 1024 && start * 2 > storage.count {
            storage.removeFirst(start)
            start = 0
        }
    }
}

extension BoundedQueue: Sendable where Element: Sendable {}
