import ActivityAdapters
import ActivityPOSIX

/// The lines an external adapter was given and has not echoed yet: what passes through raw if it
/// dies, so that a dead adapter never loses the tool's output.
///
/// An adapter echoes the lines it does not adapt unchanged, in order, and consumes the others
/// (its progress). So when it echoes a line, every line given before that one has been dealt
/// with: echoed or consumed. The lines after the last echoed one are uncertain: it may have
/// consumed them, or read them and died before writing them. They are kept, at most
/// ``maxBytes``, and passed on raw if it dies; a few progress lines may then show twice (as
/// events and raw), but no output is lost. Beyond the bound the oldest are dropped, as most
/// likely consumed long ago (an adapter that consumes more than a mebibyte without echoing).
struct Unechoed {
    static let maxBytes = 1 << 20
    static let maxLines = 4096

    private var lines = BoundedQueue<(bytes: [UInt8], stream: AdapterStream)>(
        maxCount: Self.maxLines, maxWeight: Self.maxBytes)

    /// `bytes` were written to the adapter's input.
    mutating func sent(_ bytes: UnsafeRawBufferPointer, _ stream: AdapterStream) {
        var start = 0
        for index in 0..<bytes.count where bytes[index] == 0x0A {
            append(bytes[start...index], stream)
            start = index + 1
        }
        if start < bytes.count { append(bytes[start...], stream) }
    }

    /// The adapter wrote `line`, which is not an event: that line, and every one before it, is
    /// dealt with. A line it wrote of its own (not one it was given) matches nothing. A blank line
    /// proves nothing (an adapter may write one of its own that equals a later blank line of the
    /// tool's), so it leaves every line kept.
    mutating func echoed(_ line: [UInt8]) {
        guard line.contains(where: { $0 != 0x0A && $0 != 0x0D }) else { return }
        guard let offset = lines.firstOffset(where: { $0.bytes == line }) else { return }
        _ = lines.removeFirst(offset + 1)
    }

    /// The lines not echoed, in order, as passthrough; none are kept.
    mutating func takeAll() -> [AdapterOutput] {
        var outputs: [AdapterOutput] = []
        for line in lines.removeAll() {
            if case .passthrough(let previous, let stream) = outputs.last, stream == line.stream {
                outputs[outputs.count - 1] = .passthrough(previous + line.bytes, stream)
            } else {
                outputs.append(.passthrough(line.bytes, line.stream))
            }
        }
        return outputs
    }

    /// Adds a piece: to the last line if that one has no end yet and came from the same stream.
    /// Past the bounds, the oldest lines go.
    private mutating func append(_ piece: Slice<UnsafeRawBufferPointer>, _ stream: AdapterStream) {
        if let last = lines.last, last.bytes.last != 0x0A, last.stream == stream {
            lines.updateLast(addingWeight: piece.count) { $0.bytes.append(contentsOf: piece) }
        } else {
            lines.append((Array(piece), stream), weight: piece.count)
        }
    }
}
