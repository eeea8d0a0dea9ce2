/// How a cell of a ``CommandScreen`` is drawn: its colours and attributes, as SGR (`CSI … m`)
/// set them, and the SGR bytes that go from one style to another.
///
/// ```swift
/// var style = CellStyle()
/// style.apply(sgr: [1, 38, 5, 208])  // bold, colour 208
/// CellStyle().transition(to: style)   // ESC [ 1 ; 38 ; 5 ; 208 m
/// ```
package struct CellStyle: Hashable, Sendable {
    /// A foreground, background colour: the terminal's own, one of the 256 indexed, or 24-bit.
    package enum Color: Hashable, Sendable {
        case standard
        case indexed(UInt8)
        case rgb(UInt8, UInt8, UInt8)
    }

    /// The SGR attributes, each a bit.
    package struct Attributes: OptionSet, Hashable, Sendable {
        package let rawValue: UInt16
        package init(rawValue: UInt16) { self.rawValue = rawValue }
        package static let bold = Attributes(rawValue: 1 << 0)
        package static let faint = Attributes(rawValue: 1 << 1)
        package static let italic = Attributes(rawValue: 1 << 2)
        package static let underline = Attributes(rawValue: 1 << 3)
        package static let blink = Attributes(rawValue: 1 << 4)
        package static let inverse = Attributes(rawValue: 1 << 5)
        package static let hidden = Attributes(rawValue: 1 << 6)
        package static let strikethrough = Attributes(rawValue: 1 << 7)
        package static let doubleUnderline = Attributes(rawValue: 1 << 8)
        package static let overline = Attributes(rawValue: 1 << 9)

        /// Each attribute with the SGR parameter that turns it on, in the order they are written.
        static let codes: [(Attributes, Int)] = [
            (.bold, 1), (.faint, 2), (.italic, 3), (.underline, 4), (.blink, 5), (.inverse, 7), (.hidden, 8),
            (.strikethrough, 9), (.doubleUnderline, 21), (.overline, 53),
        ]
    }

    package var foreground = Color.standard
    package var background = Color.standard
    package var attributes: Attributes = []

    package init(foreground: Color = .standard, background: Color = .standard, attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// Whether this is how a terminal draws text it was given no style for.
    package var isDefault: Bool {
        // Spelled out: asked for nearly every cell, where comparing with `CellStyle()` costs more.
        guard case .standard = foreground, case .standard = background else { return false }
        return attributes.rawValue == 0
    }

    /// The style of a cell an erase blanks: the background colour only, as xterm and tmux erase
    /// (back colour erase).
    package var erased: CellStyle { CellStyle(background: background) }

    /// Follows one SGR sequence's parameters (an empty list is a reset). Underline colours
    /// (58, 59) and unknown parameters are skipped; a malformed extended colour ends the sequence.
    package mutating func apply(sgr parameters: [Int]) {
        guard !parameters.isEmpty else {
            self = CellStyle()
            return
        }
        var index = 0
        while index < parameters.count {
            let code = max(0, parameters[index])
            index += 1
            switch code {
            case 0: self = CellStyle()
            case 1: attributes.insert(.bold)
            case 2: attributes.insert(.faint)
            case 3: attributes.insert(.italic)
            case 4: attributes.insert(.underline)
            case 5, 6: attributes.insert(.blink)
            case 7: attributes.insert(.inverse)
            case 8: attributes.insert(.hidden)
            case 9: attributes.insert(.strikethrough)
            case 21: attributes.insert(.doubleUnderline)
            case 22: attributes.subtract([.bold, .faint])
            case 23: attributes.remove(.italic)
            case 24: attributes.subtract([.underline, .doubleUnderline])
            case 25: attributes.remove(.blink)
            case 27: attributes.remove(.inverse)
            case 28: attributes.remove(.hidden)
            case 29: attributes.remove(.strikethrough)
            case 30...37: foreground = .indexed(UInt8(code - 30))
            case 39: foreground = .standard
            case 40...47: background = .indexed(UInt8(code - 40))
            case 49: background = .standard
            case 53: attributes.insert(.overline)
            case 55: attributes.remove(.overline)
            case 90...97: foreground = .indexed(UInt8(code - 90 + 8))
            case 100...107: background = .indexed(UInt8(code - 100 + 8))
            case 38, 48, 58:
                guard let color = Self.extendedColor(parameters, at: &index) else { return }
                if code == 38 { foreground = color } else if code == 48 { background = color }
            default: break
            }
        }
    }

    /// The colour of `38;5;n` or `38;2;r;g;b` (after the 38), advancing `index` past it.
    private static func extendedColor(_ parameters: [Int], at index: inout Int) -> Color? {
        guard index < parameters.count else { return nil }
        let kind = parameters[index]
        func component(_ offset: Int) -> UInt8? {
            let at = index + offset
            guard at < parameters.count else { return nil }
            return UInt8(clamping: max(0, parameters[at]))
        }
        switch kind {
        case 5:
            guard let value = component(1) else { return nil }
            index += 2
            return .indexed(value)
        case 2:
            guard let red = component(1), let green = component(2), let blue = component(3) else { return nil }
            index += 4
            return .rgb(red, green, blue)
        default: return nil
        }
    }

    /// The SGR bytes that turn `self` into `next` on a terminal: nothing when they are the same,
    /// `CSI m` to the default style, and otherwise only what is added, or a reset followed by
    /// all of `next` when something must be taken away.
    package func transition(to next: CellStyle) -> [UInt8] {
        guard next != self else { return [] }
        if next.isDefault { return [0x1B, UInt8(ascii: "["), UInt8(ascii: "m")] }
        var codes: [String] = []
        let removes =
            !attributes.isSubset(of: next.attributes) || (foreground != .standard && next.foreground == .standard)
            || (background != .standard && next.background == .standard)
        let from = removes ? CellStyle() : self
        if removes { codes.append("0") }
        for (attribute, code) in Attributes.codes
        where next.attributes.contains(attribute) && !from.attributes.contains(attribute) {
            codes.append(String(code))
        }
        if next.foreground != from.foreground { codes.append(Self.code(next.foreground, base: 30)) }
        if next.background != from.background { codes.append(Self.code(next.background, base: 40)) }
        return [0x1B, UInt8(ascii: "[")] + Array(codes.joined(separator: ";").utf8) + [UInt8(ascii: "m")]
    }

    /// The SGR parameters of a colour; `base` is 30 for the foreground, 40 for the background.
    private static func code(_ color: Color, base: Int) -> String {
        switch color {
        case .standard: return String(base + 9)
        case .indexed(let value) where value < 8: return String(base + Int(value))
        case .indexed(let value) where value < 16: return String(base + 60 + Int(value) - 8)
        case .indexed(let value): return "\(base + 8);5;\(value)"
        case .rgb(let red, let green, let blue): return "\(base + 8);2;\(red);\(green);\(blue)"
        }
    }
}
