#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A growable byte buffer that frames are built in: an append is a bounds check and a copy, and
/// the memory is kept from frame to frame. Not shared between threads.
final class ByteBuffer {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The bytes written so far.
    private(set) var count = 0

    init(capacity: Int = 1024) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written, valid until the next change.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Forgets the bytes, keeping the memory.
    func removeAll() { count = 0 }

    /// Forgets the last `k` bytes.
    func removeLast(_ k: Int) { count -= min(max(0, k), count) }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let length = bytes.count
        guard length > 0 else { return }
        if count + length > capacity { grow(to: count + length) }
        (base + count).update(from: bytes.baseAddress!, count: length)
        count += length
    }

    @inline(__always)
    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    @inline(__always)
    func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends the UTF-8 of `text`.
    @inline(__always)
    func append(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            append(Array(text.utf8))
        }
    }

    /// Appends `count` copies of `byte`.
    @inline(__always)
    func append(repeating byte: UInt8, count length: Int) {
        guard length > 0 else { return }
        if count + length > capacity { grow(to: count + length) }
        (base + count).initialize(repeating: byte, count: length)
        count += length
    }

    /// Whether both buffers hold the same bytes.
    func hasSameBytes(as other: ByteBuffer) -> Bool {
        count == other.count && (count == 0 || memcmp(base, other.base, count) == 0)
    }

    private func grow(to needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
