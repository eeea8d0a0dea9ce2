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
/// `maxLineBytes` is never held whole: it is delivered in pieces (``LinePart/first``, ``LinePart/middle``,
/// ``LinePart/last``) as the buffer fills, so a consumer can skip it, or pass it through, in constant
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

    /// How many bytes a buffer of `forEachLine(into:pendingBytes:line:next:_:)` holds at least:
    /// the longest whole line and its newline.
    public var minimumBufferBytes: Int { maxLineBytes + 1 }

    /// Where reading stands after a read whose lines are delivered: what
    /// `forEachLine(into:pendingBytes:line:next:_:)` hands `next`.
    package struct Pause {
        /// The buffer read into.
        package var buffer: UnsafeMutableBufferPointer<UInt8>
        /// Where the unfinished line's bytes stand in `buffer`.
        package var pending: Range<Int>
        /// The unfinished line's number.
        package var line: Int
        /// Whether pieces of the unfinished line were delivered already (it is longer than
        /// `maxLineBytes`): reading cannot go on from its bytes alone.
        package var inOverlongLine: Bool
        /// How many bytes the read returned.
        package var bytesRead: Int
    }

    /// Reads to the end of the source, calling `body` for each line or piece.
    public mutating func forEachLine(_ body: (Line) throws -> Void) throws {
        // Room for the longest whole line and its newline, and for a large block besides.
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(minimumBufferBytes, Self.blockBytes))
        defer { buffer.deallocate() }
        try forEachLine(into: buffer, next: { $0.keepingPending() }, body)
    }

    /// Reads as ``forEachLine(_:)`` does, into buffers the caller owns, so that the lines of one
    /// read can outlive the next: it reads into `first`, and once the lines of a read are
    /// delivered (when at least one was), calls `next`, and reads on into the buffer `next`
    /// returns, which must hold the unfinished line's bytes at its front. The bytes `body` was
    /// handed stay as they are until the caller reuses their buffer. Every buffer holds at least
    /// ``minimumBufferBytes``.
    ///
    /// Reading taken up where another left off, at a ``Pause`` outside an overlong line, starts
    /// with that line's bytes at the front of `first`, `pendingBytes` of them, and numbers it
    /// `line`. `beforeRead` runs before each read, which may wait for the source.
    package mutating func forEachLine(
        into first: UnsafeMutableBufferPointer<UInt8>, pendingBytes: Int = 0, line: Int = 1,
        beforeRead: () throws -> Void = {}, next: (Pause) throws -> UnsafeMutableBufferPointer<UInt8>,
        _ body: (Line) throws -> Void
    ) throws {
        precondition(first.count >= minimumBufferBytes, "a line reader's buffer holds its longest line")
        precondition(pendingBytes <= maxLineBytes, "reading goes on from a line shorter than the longest")
        var buffer = first
        var filled = pendingBytes  // bytes in buffer[0..<filled]
        var lineNumber = line
        var inOverlong = false
        var atEnd = false
        let maxLineBytes = self.maxLineBytes
        /// Hands out full pieces of an overlong line from `start` while more than `maxLineBytes`
        /// bytes remain before `end`.
        func pieces(of buffer: UnsafeMutableBufferPointer<UInt8>, from start: inout Int, before end: Int) throws {
            while end - start > maxLineBytes {
                let bytes = UnsafeBufferPointer(rebasing: buffer[start..<(start + maxLineBytes)])
                try body(
                    Line(number: lineNumber, bytes: bytes, part: inOverlong ? .middle : .first, endsWithNewline: false))
                inOverlong = true
                start += maxLineBytes
            }
        }
        while !atEnd {
            try beforeRead()
            let count = try source.read(
                into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[filled...])))
            if count == 0 { atEnd = true }
            filled += count
            var start = 0
            var scan = filled - count
            while let newline = find(UInt8(ascii: "\n"), in: buffer, from: scan, to: filled) {
                try pieces(of: buffer, from: &start, before: newline)
                let bytes = UnsafeBufferPointer(rebasing: buffer[start..<newline])
                try body(
                    Line(number: lineNumber, bytes: bytes, part: inOverlong ? .last : .whole, endsWithNewline: true))
                inOverlong = false
                lineNumber += 1
                start = newline + 1
                scan = start
            }
            try pieces(of: buffer, from: &start, before: filled)
            if atEnd {
                if filled > start || inOverlong {
                    let bytes = UnsafeBufferPointer(rebasing: buffer[start..<filled])
                    try body(
                        Line(
                            number: lineNumber, bytes: bytes, part: inOverlong ? .last : .whole, endsWithNewline: false)
                    )
                }
            } else if start > 0 {
                let pending = start..<filled
                buffer = try next(
                    Pause(
                        buffer: buffer, pending: pending, line: lineNumber, inOverlongLine: inOverlong,
                        bytesRead: count))
                precondition(buffer.count >= minimumBufferBytes, "a line reader's buffer holds its longest line")
                filled = pending.count
            }
        }
    }
}

/// The offset of the first `byte` in `buffer[from..<to]`: `memchr`, which the C library runs on
/// whole vector registers. (A free function: a static one of the generic reader would look up the
/// reader's metadata on every call.)
@inline(__always)
private func find(_ byte: UInt8, in buffer: UnsafeMutableBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
    firstOffset(of: byte, in: UnsafeRawBufferPointer(buffer), from: from, to: to)
}

/// The offset of the first `byte` in `bytes[from..<to]`, found by `memchr`.
@inline(__always)
package func firstOffset(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from: Int, to: Int) -> Int? {
    guard from < to, let base = bytes.baseAddress else { return nil }
    guard let found = memchr(base + from, Int32(byte), to - from) else { return nil }
    return base.distance(to: UnsafeRawPointer(found))
}

extension LineReader: Sendable where Source: Sendable {}

extension LineReader.Pause {
    /// The buffer read into, the unfinished line's bytes moved to its front: to read on in the
    /// same buffer.
    package func keepingPending() -> UnsafeMutableBufferPointer<UInt8> {
        if !pending.isEmpty, pending.lowerBound > 0 {
            UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(
                from: buffer.baseAddress! + pending.lowerBound, byteCount: pending.count)
        }
        return buffer
    }
}
