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
    public enum Part: Sendable, Hashable {
        /// A whole line, without its `\n`.
        case whole
        /// The first `maxLineBytes` bytes of an overlong line (every piece but the last is that long).
        case first
        /// More of an overlong line.
        case middle
        /// The end of an overlong line, without its `\n`; possibly empty.
        case last
    }

    /// A line, or a piece of an overlong one. `bytes` is valid only during the callback.
    public struct Line {
        public var number: Int
        public var bytes: UnsafeBufferPointer<UInt8>
        public var part: Part
        /// Whether a `\n` followed `bytes` in the stream: passing the line on byte for byte writes
        /// `bytes` and then, only if this is set, the `\n` (a final line may lack one).
        public var endsWithNewline: Bool
    }

    private var source: Source
    public let maxLineBytes: Int

    public init(source: Source, maxLineBytes: Int = WireLimits.maxAcceptedLineBytes) {
        self.source = source
        self.maxLineBytes = max(1, maxLineBytes)
    }

    /// Reads to the end of the source, calling `body` for each line or piece.
    public mutating func forEachLine(_ body: (Line) throws -> Void) throws {
        let capacity = maxLineBytes + 1  // room for the longest whole line and its newline
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var filled = 0  // bytes in buffer[0..<filled]
        var lineNumber = 1
        var inOverlong = false
        var atEnd = false
        while !atEnd {
            let count = try source.read(
                into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[filled..<capacity])))
            if count == 0 { atEnd = true }
            filled += count
            var start = 0
            var scan = filled - count
            while let newline = Self.find(UInt8(ascii: "\n"), in: buffer, from: scan, to: filled) {
                let bytes = UnsafeBufferPointer(rebasing: buffer[start..<newline])
                try body(
                    Line(number: lineNumber, bytes: bytes, part: inOverlong ? .last : .whole, endsWithNewline: true))
                inOverlong = false
                lineNumber += 1
                start = newline + 1
                scan = start
            }
            let pending = filled - start
            if atEnd {
                if pending > 0 || inOverlong {
                    let bytes = UnsafeBufferPointer(rebasing: buffer[start..<filled])
                    try body(
                        Line(
                            number: lineNumber, bytes: bytes, part: inOverlong ? .last : .whole, endsWithNewline: false)
                    )
                }
            } else if pending > maxLineBytes {
                // The buffer is full with no newline: hand out exactly `maxLineBytes` and keep the rest.
                let bytes = UnsafeBufferPointer(rebasing: buffer[start..<(start + maxLineBytes)])
                try body(
                    Line(number: lineNumber, bytes: bytes, part: inOverlong ? .middle : .first, endsWithNewline: false))
                inOverlong = true
                let rest = pending - maxLineBytes
                UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(
                    from: buffer.baseAddress! + start + maxLineBytes, byteCount: rest)
                filled = rest
                continue
            }
            if start > 0 {
                // Keep the unfinished line at the front of the buffer.
                if pending > 0 {
                    UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(
                        from: buffer.baseAddress! + start, byteCount: pending)
                }
                filled = pending
            }
        }
    }

    @inline(__always)
    private static func find(
        _ byte: UInt8, in buffer: UnsafeMutableBufferPointer<UInt8>, from: Int, to: Int
    ) -> Int? {
        guard from < to, let base = buffer.baseAddress else { return nil }
        guard let found = memchr(base + from, Int32(byte), to - from) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}
