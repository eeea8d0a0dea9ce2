import ActivityWire

/// One grapheme cluster of a ``StyledLine`` being wrapped: where its bytes stand in its span's
/// text, and its display width.
struct WrapCell {
    /// The index of its span in the line.
    var span: Int
    /// Its bytes in the span's UTF-8.
    var bytes: Range<Int>
    var width: Int
    var isSpace: Bool

    /// The clusters of `spans`, in order, each span segmented on its own, and the spans' UTF-8.
    /// Text made only of characters that stand alone (``DisplayWidth/forEachSimpleCharacter(in:_:)``:
    /// printable ASCII, `›`, CJK, the bar glyphs) has one cluster a scalar, so it is read from
    /// its bytes without forming clusters: a long log line is wrapped at a fraction of the cost.
    static func cells(of spans: [StyledLine.Span]) -> (cells: [WrapCell], utf8: [[UInt8]]) {
        var cells: [WrapCell] = []
        let utf8 = spans.map { Array($0.text.utf8) }
        cells.reserveCapacity(utf8.reduce(0) { $0 + $1.count })
        for (index, span) in spans.enumerated() {
            let first = cells.count
            let simple = utf8[index].withUnsafeBufferPointer { bytes in
                DisplayWidth.forEachSimpleCharacter(in: bytes) { offset, length, width in
                    cells.append(
                        WrapCell(
                            span: index, bytes: offset..<(offset + length), width: width,
                            isSpace: bytes[offset] == UInt8(ascii: " ")))
                }
            }
            if simple { continue }
            // Not all simple: segmented again from the start, cluster by cluster.
            cells.removeSubrange(first...)
            var offset = 0
            for character in span.text {
                let length = character.utf8.count
                cells.append(
                    WrapCell(
                        span: index, bytes: offset..<(offset + length), width: DisplayWidth.of(character),
                        isSpace: character == " "))
                offset += length
            }
        }
        return (cells, utf8)
    }
}
