/// Whether the `count` bytes at `first` and at `second` are the same, compared eight at a time:
/// the one comparison of bytes a consumer keeps (an id in the fold's table, a text the store made)
/// with those a line holds.
///
/// For the package's consumers only (`@_spi(Consumers)`): public so that it inlines into their hot
/// paths.
@_spi(Consumers) @inlinable @inline(__always)
public func sameBytes(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool {
    var index = 0
    while index + 8 <= count {
        guard
            first.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                == second.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        else { return false }
        index += 8
    }
    while index < count {
        guard first.load(fromByteOffset: index, as: UInt8.self) == second.load(fromByteOffset: index, as: UInt8.self)
        else { return false }
        index += 1
    }
    return true
}
