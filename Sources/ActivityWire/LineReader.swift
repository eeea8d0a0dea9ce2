#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits a byte stream into lines with bounded memory.
///
/// Lines end in `\n`; a final line without one is still delivered. A line longer than
/// `maxLineBytes` is never held whole: it is delivered in pieces (``Part/first``, ``Part/middle``,
/// ``Part/last``) as the buffer fills, so a consumer can skip it, or pass it through, in constant
/// memory.
///
/// ```swift
/// var reader = LineReader(source: FileDescriptorSource(fileDescriptor: 0))
/// try reader.forEachLine { line in
///     if line.part == .whole { print(line.number, line.bytes.count) }
/// }
/// ```
public struct LineReader<Source: ByteSource> {
    /// Which piece of a line a callback holds.
    public typealias Part = LinePart
    /// A line, or a piece of an overlong one.
    public typealias Line = StreamLine

    private var source: Source
    public let maxLineBytes: Int

    public init(source: Source, maxLineBytes: Int = WireLimits.maxAcceptedLineBytes) {
        self.source = source
        self.maxLineBytes = max(1, maxLineBytes)
    }

    /// How much is read at once: large blocks, so that a fast producer costs few `read(2)` calls.
    public static var blockBytes: Int { 1 << 18 }

    /// Reads to the end of the source, calling `body` for each line or piece.
    public mutating func forEachLine(_ body: (Line) throws -> Void) throws {
        // Room for the longest whole line and its newline, and for a large block besides.
        let capacity = max(maxLineBytes + 1, Self.blockBytes)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var filled = 0  // bytes in buffer[0..<filled]
        var lineNumber = 1
        var inOverlong = false
        var atEnd = false
        let maxLineBytes = self.maxLineBytes
        /// Hands out full pieces of an overlong line from `start` while more than `maxLineBytes`
        /// bytes remain before `end`.
        func pieces(from start: inout Int, before end: Int) throws {
            while end - start > maxLineBytes {
                let bytes = UnsafeBufferPointer(rebasing: buffer[start..<(start + maxLineBytes)])
                try body(
                    Line(number: lineNumber, bytes: bytes, part: inOverlong ? .middle : .first, endsWithNewline: false))
                inOverlong = true
                start += maxLineBytes
            }
        }
        while !atEnd {
            let count = try source.read(
                into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[filled..<capacity])))
            if count == 0 { atEnd = true }
            filled += count
            var start = 0
            var scan = filled - count
            while let newline = find(UInt8(ascii: "\n"), in: buffer, from: scan, to: filled) {
                try pieces(from: &start, before: newline)
                let bytes = UnsafeBufferPointer(rebasing: buffer[start..<newline])
                try body(
                    Line(number: lineNumber, bytes: bytes, part: inOverlong ? .last : .whole, endsWithNewline: true))
                inOverlong = false
                lineNumber += 1
                start = newline + 1
                scan = start
            }
            try pieces(from: &start, before: filled)
            let pending = filled - start
            if atEnd {
                if pending > 0 || inOverlong {
                    let bytes = UnsafeBufferPointer(rebasing: buffer[start..<filled])
                    try body(
                        Line(
                            number: lineNumber, bytes: bytes, part: inOverlong ? .last : .whole, endsWithNewline: false)
                    )
                }
            } else if start > 0 {
                // Keep the unfinished line at the front of the buffer.
                if pending > 0 {
                    UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(
                        from: buffer.baseAddress! + start, byteCount: pending)
                }
                filled = pending
            }
        }
    }
}

/// The offset of the first `byte` in `buffer[from..<to]`: `memchr`, which the C library runs on
/// whole vector registers. (A free function: a static one of the generic reader would look up the
/// reader's metadata on every call.)
@inline(__always)
private func find(_ byte: UInt8, in buffer: UnsafeMutableBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
    guard from < to, let base = buffer.baseAddress else { return nil }
    guard let found = memchr(base + from, Int32(byte), to - from) else { return nil }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
}
