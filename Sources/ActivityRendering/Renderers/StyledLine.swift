/// A line of the display as spans of text with a paint each; measured and cut by display width.
struct StyledLine: Sendable {
    struct Span: Sendable {
        var text: String
        var paint: TerminalStyle.Paint
    }

    var spans: [Span] = []

    init() {}

    init(_ text: String, _ paint: TerminalStyle.Paint = .none) {
        append(text, paint)
    }

    mutating func append(_ text: String, _ paint: TerminalStyle.Paint = .none) {
        guard !text.isEmpty else { return }
        spans.append(Span(text: text, paint: paint))
    }

    var width: Int { spans.reduce(0) { $0 + DisplayWidth.of($1.text) } }

    /// The text without paint.
    var plain: String { spans.map(\.text).joined() }

    /// The line cut to `width` columns, the cut marked by `ellipsis`.
    func truncated(to width: Int, ellipsis: String) -> StyledLine {
        guard self.width > width else { return self }
        var result = StyledLine()
        var used = 0
        let ellipsisWidth = DisplayWidth.of(ellipsis)
        for span in spans {
            let spanWidth = DisplayWidth.of(span.text)
            if used + spanWidth <= width - ellipsisWidth {
                result.spans.append(span)
                used += spanWidth
                continue
            }
            let room = width - used
            let cut = DisplayWidth.truncate(span.text, to: room, ellipsis: ellipsis)
            result.append(cut, span.paint)
            break
        }
        return result
    }

    /// The bytes of the line, with SGR sequences when `color` is on.
    func encoded(color: Bool, into out: inout [UInt8]) {
        for span in spans {
            if color && span.paint != .none {
                out.append(contentsOf: [0x1B, 0x5B])
                out.append(contentsOf: span.paint.rawValue.utf8)
                out.append(UInt8(ascii: "m"))
                out.append(contentsOf: span.text.utf8)
                out.append(contentsOf: [0x1B, 0x5B, UInt8(ascii: "0"), UInt8(ascii: "m")])
            } else {
                out.append(contentsOf: span.text.utf8)
            }
        }
    }
}
