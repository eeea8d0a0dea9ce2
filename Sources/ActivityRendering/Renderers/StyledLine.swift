import ActivityTerminal
import ActivityWire

/// Where a line's spans go: a ``StyledLine``, or straight into a frame's bytes.
protocol LineSink {
    /// Appends text whose display width the caller already knows, coloured as `role` (`nil`:
    /// never coloured); empty text is skipped.
    mutating func append(_ text: String, _ role: ColorRole?, width: Int)
    /// Appends `width` spaces, never coloured.
    mutating func appendBlank(_ width: Int)
}

/// Writes spans straight into a frame's bytes, in `colors` when there are any: the bytes
/// ``StyledLine/encoded(colors:into:)`` would give for the same spans.
struct LineWriter: LineSink {
    let buffer: ByteBuffer
    let colors: ColorTheme?
    /// The display width written so far.
    private(set) var width = 0

    init(buffer: ByteBuffer, colors: ColorTheme?) {
        self.buffer = buffer
        self.colors = colors
    }

    /// Spaces straight into the bytes: no string to fetch or retain.
    @inline(__always)
    mutating func appendBlank(_ width: Int) {
        guard width > 0 else { return }
        buffer.append(repeating: 0x20, count: width)
        self.width += width
    }

    /// Counts `width` columns whose bytes the caller wrote into the buffer itself.
    mutating func skip(width: Int) { self.width += width }

    @inline(__always)
    mutating func append(_ text: String, _ role: ColorRole?, width: Int) {
        guard !text.isEmpty else { return }
        if let role, let colors, colors.appendSequence(for: role, to: buffer) {
            buffer.append(text)
            buffer.append("\u{1B}[0m" as StaticString)
        } else {
            buffer.append(text)
        }
        self.width += width
    }
}

/// A line of the display as spans of text with a colour role each; measured and cut by display
/// width.
struct StyledLine: Sendable, LineSink {
    struct Span: Sendable {
        var text: String
        /// What the span is, for its colour; `nil`: never coloured.
        var role: ColorRole?
        /// The display width, measured once.
        var width: Int
    }

    var spans: [Span] = []
    /// The display width of the whole line.
    private(set) var width = 0

    init() {}

    init(capacity: Int) {
        spans.reserveCapacity(capacity)
    }

    init(_ text: String, _ role: ColorRole? = nil) {
        append(text, role)
    }

    mutating func append(_ text: String, _ role: ColorRole? = nil) {
        guard !text.isEmpty else { return }
        append(text, role, width: DisplayWidth.of(text))
    }

    /// Appends text whose display width the caller already knows.
    mutating func append(_ text: String, _ role: ColorRole?, width: Int) {
        guard !text.isEmpty else { return }
        spans.append(Span(text: text, role: role, width: width))
        self.width += width
    }

    mutating func appendBlank(_ width: Int) {
        append(TerminalRenderer.blank(width), nil, width: max(0, width))
    }

    /// The text without colour.
    var plain: String { spans.map(\.text).joined() }

    /// The line cut to `width` columns, the cut marked by `ellipsis`.
    func truncated(to width: Int, ellipsis: String) -> StyledLine {
        guard self.width > width else { return self }
        var result = StyledLine()
        var used = 0
        let ellipsisWidth = DisplayWidth.of(ellipsis)
        for span in spans {
            if used + span.width <= width - ellipsisWidth {
                result.append(span.text, span.role, width: span.width)
                used += span.width
                continue
            }
            let room = width - used
            let cut = DisplayWidth.truncate(span.text, to: room, ellipsis: ellipsis)
            result.append(cut, span.role)
            break
        }
        return result
    }

    /// The line broken into rows of at most `width` columns, continuation rows indented by
    /// `indent` spaces, so a long error message is shown whole without the terminal wrapping it.
    /// Rows break at the last space that fits, or before a wide (East Asian) character, where
    /// lines may break without a space (across spans: a title and the message after it wrap as
    /// one text); only a word longer than a whole row is cut inside. Neighbouring text drawn
    /// alike in `colors` becomes one span, so it takes one colour sequence.
    func wrapped(to width: Int, indent: Int, colors: ColorTheme? = nil) -> [StyledLine] {
        guard self.width > width, width > indent + 4 else { return [self] }
        let (cells, utf8) = WrapCell.cells(of: spans)
        let alike: (ColorRole?, ColorRole?) -> Bool = { a, b in colors?.drawsAlike(a, b) ?? (a == b) }
        var rows: [StyledLine] = []
        var start = 0
        var first = true
        while start < cells.count {
            let room = first ? width : width - indent
            var used = 0
            var end = start
            var lastBreak: Int?
            while end < cells.count, used + cells[end].width <= room {
                if cells[end].isSpace || cells[end].width == 2 { lastBreak = end }
                used += cells[end].width
                end += 1
            }
            if end < cells.count, cells[end].isSpace || cells[end].width == 2 { lastBreak = end }
            var next = end
            if end < cells.count, let position = lastBreak, position > start {
                end = position  // the row ends there; the next starts after any spaces
                next = position
            }
            while end > start, cells[end - 1].isSpace { end -= 1 }
            while next < cells.count, cells[next].isSpace { next += 1 }
            var row = StyledLine()
            if !first { row.appendBlank(indent) }
            var index = start
            while index < end {
                var text: [UInt8] = []
                // The cells were measured: their widths are the row's, not measured again.
                var width = 0
                let role = spans[cells[index].span].role
                while index < end, alike(spans[cells[index].span].role, role) {
                    // The cells of one span that follow each other are one run of its bytes.
                    let span = cells[index].span
                    let from = cells[index].bytes.lowerBound
                    var upTo = cells[index].bytes.upperBound
                    width += cells[index].width
                    index += 1
                    while index < end, cells[index].span == span {
                        upTo = cells[index].bytes.upperBound
                        width += cells[index].width
                        index += 1
                    }
                    text += utf8[span][from..<upTo]
                }
                row.append(String(decoding: text, as: UTF8.self), role, width: width)
            }
            rows.append(row)
            if next == start { next = start + 1 }  // a cell wider than the row: never stall
            start = next
            first = false
        }
        return rows
    }

    /// The bytes of the line, in `colors` when there are any.
    func encoded(colors: ColorTheme?, into out: inout [UInt8]) {
        for span in spans {
            if let role = span.role, let colors, colors.appendSequence(for: role, to: &out) {
                Formatting.appendUTF8(span.text, to: &out)
                out.append(contentsOf: Self.reset)
            } else {
                Formatting.appendUTF8(span.text, to: &out)
            }
        }
    }

    /// The bytes of the line appended to `out`, in `colors` when there are any.
    func encoded(colors: ColorTheme?, into out: ByteBuffer) {
        spans.withUnsafeBufferPointer { spans in
            for index in spans.indices {
                if let role = spans[index].role, let colors, colors.appendSequence(for: role, to: out) {
                    out.append(spans[index].text)
                    out.append(Self.reset)
                } else {
                    out.append(spans[index].text)
                }
            }
        }
    }

    static let reset: [UInt8] = [0x1B, 0x5B, UInt8(ascii: "0"), UInt8(ascii: "m")]
}
