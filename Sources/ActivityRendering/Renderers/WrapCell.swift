import ActivityWire

/// One grapheme cluster of a ``StyledLine`` being wrapped: where it stands in its span's text,
/// and its display width.
struct WrapCell {
    /// The index of its span in the line.
    var span: Int
    var start: String.Index
    var end: String.Index
    var width: Int
    var isSpace: Bool

    /// The clusters of `spans`, in order, each span segmented on its own. Text made only of
    /// characters that stand alone (``DisplayWidth/simpleWidth(_:)``: printable ASCII, `›`, CJK,
    /// the bar glyphs) has one cluster a scalar, so it is read by scalars, without forming
    /// clusters: a long log line is wrapped at a fraction of the cost.
    static func cells(of spans: [StyledLine.Span]) -> [WrapCell] {
        var cells: [WrapCell] = []
        cells.reserveCapacity(spans.reduce(0) { $0 + $1.text.utf8.count })
        for (index, span) in spans.enumerated() {
            var bytes = span.text
            let text = span.text
            if bytes.withUTF8({ DisplayWidth.simpleWidth($0) }) != nil {
                let scalars = text.unicodeScalars
                var position = scalars.startIndex
                while position < scalars.endIndex {
                    let scalar = scalars[position]
                    let next = scalars.index(after: position)
                    cells.append(
                        WrapCell(
                            span: index, start: position, end: next, width: DisplayWidth.of(Character(scalar)),
                            isSpace: scalar == " "))
                    position = next
                }
            } else {
                var position = text.startIndex
                while position < text.endIndex {
                    let next = text.index(after: position)
                    let character = text[position]
                    cells.append(
                        WrapCell(
                            span: index, start: position, end: next, width: DisplayWidth.of(character),
                            isSpace: character == " "))
                    position = next
                }
            }
        }
        return cells
    }
}
