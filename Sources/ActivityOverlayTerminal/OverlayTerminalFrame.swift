public import ActivityOverlay
import ActivityWire

/// The terminal picture of an overlay: a centred box with a spinner or a bar, the label, the message
/// and "Esc to cancel", over a dimmed or blank screen.
///
/// A frame is a pure function of the state, the terminal's size and its capabilities. ``lines``
/// gives the plain text grid (for tests and for terminals that cannot do colour); ``render()`` gives
/// the bytes to write: one synchronized-output update that redraws every cell.
///
/// ```swift
/// let frame = OverlayTerminalFrame(state: controller.state, columns: 80, rows: 24, tick: spinnerTick)
/// write(fd, frame.render())
/// ```
public struct OverlayTerminalFrame: Hashable, Sendable {
    /// The state to draw.
    public var state: OverlayState
    /// The terminal's width in cells.
    public var columns: Int
    /// The terminal's height in lines.
    public var rows: Int
    /// Whether the terminal shows UTF-8 (box drawing, braille spinner); ASCII otherwise.
    public var unicode: Bool
    /// Whether colour may be used (dimming is drawn with a grey background).
    public var color: Bool
    /// The spinner's frame number; the presenter advances it with wall-clock time.
    public var tick: Int

    /// The widest the box grows, in cells.
    public static let maximumBoxWidth = 64

    /// Creates a frame.
    public init(state: OverlayState, columns: Int, rows: Int, unicode: Bool = true, color: Bool = true, tick: Int = 0) {
        self.state = state
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        self.unicode = unicode
        self.color = color
        self.tick = tick
    }

    /// The box, and where it sits.
    struct Layout: Hashable {
        var top: Int
        var left: Int
        var lines: [String]
        var width: Int
    }

    /// The spinner frames for UTF-8 and ASCII terminals.
    static let unicodeSpinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    static let asciiSpinner = ["|", "/", "-", "\\"]

    var ellipsis: String { unicode ? "…" : "..." }

    func text(_ value: String) -> String { unicode ? value : TerminalSanitizer.ascii(value) }

    /// The box's lines and position: empty when the terminal has no room at all.
    var layout: Layout {
        guard columns >= 8, rows >= 1 else { return Layout(top: 0, left: 0, lines: [], width: 0) }
        let icon: String
        switch state.content {
        case .spinner:
            let frames = unicode ? Self.unicodeSpinner : Self.asciiSpinner
            icon = frames[((tick % frames.count) + frames.count) % frames.count]
        case .progress: icon = unicode ? "◆" : "*"
        case .success: icon = unicode ? "✔" : "+"
        case .failure: icon = unicode ? "✖" : "x"
        }
        let title = "\(icon) \(text(state.title))"
        let message = state.message.map(text)
        let cancel: String? =
            state.cancel == .available ? "Esc to cancel" : state.cancel == .requested ? "Cancelling\(ellipsis)" : nil

        let wanted = [title, message ?? "", cancel ?? ""].map { DisplayWidth.of($0) }.max()! + 4
        let inner = min(max(wanted, 28), Self.maximumBoxWidth - 2, columns - 2)
        let textWidth = inner - 4
        var body: [String] = []
        body.append(DisplayWidth.fit(title, to: textWidth, ellipsis: ellipsis))
        if case .progress(let fraction) = state.content {
            body.append(DisplayWidth.fit(bar(fraction, width: textWidth), to: textWidth, ellipsis: ""))
        }
        if let message, !message.isEmpty {
            body.append(DisplayWidth.fit(message, to: textWidth, ellipsis: ellipsis))
        }
        if let cancel {
            let cut = DisplayWidth.truncate(cancel, to: textWidth, ellipsis: ellipsis)
            body.append(String(repeating: " ", count: textWidth - DisplayWidth.of(cut)) + cut)
        }
        var content = body.map { "  \($0)  " }
        let blank = String(repeating: " ", count: inner)
        if rows >= content.count + 4 { content = [blank] + content + [blank] }
        let (h, v, tl, tr, bl, br) = unicode ? ("─", "│", "╭", "╮", "╰", "╯") : ("-", "|", "+", "+", "+", "+")
        var lines = content.map { v + $0 + v }
        if rows >= lines.count + 2 {
            let rule = String(repeating: h, count: inner)
            lines = [tl + rule + tr] + lines + [bl + rule + br]
        }
        lines = Array(lines.prefix(rows))
        let width = inner + 2
        return Layout(top: (rows - lines.count) / 2, left: (columns - width) / 2, lines: lines, width: width)
    }

    func bar(_ fraction: Double, width: Int) -> String {
        let fraction = fraction.isFinite ? min(1, max(0, fraction)) : 0
        let percent = "\(DisplayPercent.value(fraction))%"
        let cells = max(0, width - 5)
        let filled = Int(saturating: Double(cells) * fraction, rounding: .down)
        let (full, empty) = unicode ? ("█", "░") : ("#", "-")
        let bar = String(repeating: full, count: filled) + String(repeating: empty, count: cells - filled)
        return unicode
            ? bar + String(repeating: " ", count: 5 - percent.count) + percent
            : "[" + bar.dropFirst().dropLast() + "]" + String(repeating: " ", count: 5 - percent.count) + percent
    }

    /// The screen as plain text: `rows` lines of exactly `columns` cells (empty when not visible).
    public var lines: [String] {
        guard state.isVisible else { return [] }
        let layout = layout
        let background = String(repeating: " ", count: columns)
        return (0..<rows).map { row in
            let index = row - layout.top
            guard layout.lines.indices.contains(index) else { return background }
            let right = columns - layout.left - layout.width
            return String(repeating: " ", count: layout.left) + layout.lines[index]
                + String(repeating: " ", count: max(0, right))
        }
    }

    /// The bytes that draw the frame: a synchronized update that homes the cursor and paints every
    /// cell, the background grey when the overlay dims and colour is allowed. Empty when not visible.
    public func render() -> String {
        guard state.isVisible, rows > 0, columns > 0 else { return "" }
        let layout = layout
        let dim = color && state.dims && !state.replacesContent
        let backgroundStyle = dim ? "\u{1B}[0;48;5;236m" : "\u{1B}[0m"
        let boxStyle: String
        switch state.content {
        case .success where color: boxStyle = "\u{1B}[0;1;32m"
        case .failure where color: boxStyle = "\u{1B}[0;1;31m"
        default: boxStyle = color ? "\u{1B}[0;1m" : "\u{1B}[0m"
        }
        var out = "\u{1B}[?2026h\u{1B}[H"
        out.reserveCapacity(rows * (columns + 16))
        let blank = String(repeating: " ", count: columns)
        for row in 0..<rows {
            out += "\u{1B}[\(row + 1);1H"
            let index = row - layout.top
            if layout.lines.indices.contains(index) {
                out += backgroundStyle + String(repeating: " ", count: layout.left)
                out += boxStyle + layout.lines[index]
                out += backgroundStyle + String(repeating: " ", count: max(0, columns - layout.left - layout.width))
            } else {
                out += backgroundStyle + blank
            }
        }
        out += "\u{1B}[0m\u{1B}[?2026l"
        return out
    }
}
