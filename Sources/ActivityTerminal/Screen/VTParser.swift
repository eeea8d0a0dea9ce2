/// The DEC/ANSI escape sequence parser of a VT-compatible terminal (the state machine of the
/// VT500 series, as xterm and tmux implement it), reading UTF-8: one byte at a time, it says
/// what the terminal must do, keeping its state between reads, so a sequence or a character may
/// be cut anywhere.
///
/// States: ground (text, decoded from UTF-8, malformed bytes becoming U+FFFD), escape (and its
/// intermediates), a control sequence (`CSI`: its private marker, parameters, intermediates;
/// one too long or malformed is ignored to its end), an operating system command (`OSC`, ended
/// by BEL or ST), and the strings no terminal acts on here (`DCS`, `SOS`, `PM`, `APC`), skipped
/// to their ST. C0 controls are executed in every state but the strings; CAN and SUB abandon a
/// sequence; ESC starts a new one wherever it comes.
///
/// ```swift
/// var parser = VTParser()
/// for byte in "\u{1B}[2J".utf8 {
///     if parser.take(byte) == .controlSequence { parser.sequence.final }  // "J"
/// }
/// ```
package struct VTParser: Sendable {
    /// What a byte completed.
    package enum Action: Equatable, Sendable {
        /// A character to draw: ``character``.
        case print
        /// A C0 control (`\n`, `\r`, BS, HT, BEL, …): the byte itself.
        case execute(UInt8)
        /// A control sequence, in ``sequence``.
        case controlSequence
        /// An escape sequence (`ESC 7`, `ESC M`, `ESC ( 0`), in ``sequence``: its intermediates and
        /// final byte.
        case escape
        /// An operating system command (a title, a hyperlink), its text in ``string``.
        case operatingSystemCommand
    }

    /// A control or escape sequence as it was read.
    package struct Sequence: Sendable {
        /// `?`, `>`, `<` or `=` before the parameters; 0 for none.
        package var marker: UInt8 = 0
        /// The parameters; an omitted one is -1 (``parameter(_:default:)`` gives its default).
        package var parameters: [Int] = []
        package var intermediates: [UInt8] = []
        package var final: UInt8 = 0

        /// The parameter at `index`, or `fallback` when it is missing or 0 for a count.
        package func parameter(_ index: Int, default fallback: Int) -> Int {
            index < parameters.count && parameters[index] >= 0 ? parameters[index] : fallback
        }

        /// A count (a cursor move, lines to insert): at least 1.
        package func count(_ index: Int = 0) -> Int { max(1, parameter(index, default: 1)) }
    }

    private enum State {
        case ground, escape, escapeIntermediate, controlEntry, controlParameter, controlIgnore
        case operatingSystem, operatingSystemEscape, ignoredString, ignoredStringEscape
    }

    /// The longest operating system command kept (a longer one is cut there).
    package static let maxStringBytes = 4096
    /// The most parameters a control sequence keeps (later ones are dropped).
    static let maxParameters = 32

    private var state = State.ground
    /// The control or escape sequence being read, and the last one completed.
    package private(set) var sequence = Sequence()
    /// The text of the last operating system command.
    package private(set) var string: [UInt8] = []
    /// The character of the last ``Action/print``.
    package private(set) var character = Unicode.Scalar(UInt8(0))
    private var parameterOpen = false
    private var utf8 = (value: UInt32(0), remaining: 0, minimum: UInt32(0))

    package init() {}

    /// Whether a sequence or a character is cut, waiting for its next bytes.
    package var isInsideSequence: Bool { state != .ground || utf8.remaining > 0 }

    /// Reads one byte; returns what it completed, if anything.
    @inline(__always)
    package mutating func take(_ byte: UInt8) -> Action? {
        if state == .ground && utf8.remaining == 0 && byte >= 0x20 && byte < 0x7F {
            character = Unicode.Scalar(byte)
            return .print
        }
        return takeSlow(byte)
    }

    private mutating func takeSlow(_ byte: UInt8) -> Action? {
        switch state {
        case .operatingSystem, .operatingSystemEscape, .ignoredString, .ignoredStringEscape:
            return takeString(byte)
        default: break
        }
        switch byte {
        case 0x1B:
            if utf8.remaining > 0 { return malformed(then: byte) }
            state = .escape
            sequence = Sequence()
            return nil
        case 0x18, 0x1A:
            state = .ground
            utf8.remaining = 0
            return nil
        case 0x00..<0x20:
            if utf8.remaining > 0 { return malformed(then: byte) }
            return .execute(byte)
        default: break
        }
        switch state {
        case .ground: return decode(byte)
        case .escape: return takeEscape(byte)
        case .escapeIntermediate:
            if (0x20...0x2F).contains(byte) {
                if sequence.intermediates.count < 4 { sequence.intermediates.append(byte) }
                return nil
            }
            state = .ground
            guard (0x30...0x7E).contains(byte) else { return nil }
            sequence.final = byte
            return .escape
        case .controlEntry, .controlParameter: return takeControl(byte)
        case .controlIgnore:
            if (0x40...0x7E).contains(byte) { state = .ground }
            return nil
        default: return nil
        }
    }

    private mutating func takeEscape(_ byte: UInt8) -> Action? {
        switch byte {
        case UInt8(ascii: "["):
            state = .controlEntry
            parameterOpen = false
        case UInt8(ascii: "]"):
            state = .operatingSystem
            string.removeAll(keepingCapacity: true)
        case UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"):
            state = .ignoredString
        case 0x20...0x2F:
            sequence.intermediates.append(byte)
            state = .escapeIntermediate
        case 0x30...0x7E:
            state = .ground
            sequence.final = byte
            return .escape
        default:
            state = .ground  // DEL: ignored
        }
        return nil
    }

    private mutating func takeControl(_ byte: UInt8) -> Action? {
        switch byte {
        case 0x30...0x39:
            if !parameterOpen { openParameter() }
            if let last = sequence.parameters.indices.last {
                let value = sequence.parameters[last]
                // Saturated: a parameter past any terminal's range means the same as a large one.
                sequence.parameters[last] = min(99_999, max(0, value) * 10 + Int(byte - 0x30))
            }
            state = .controlParameter
        case UInt8(ascii: ";"), UInt8(ascii: ":"):
            if !parameterOpen { openParameter() }
            parameterOpen = false
            state = .controlParameter
        case 0x3C...0x3F:
            if state == .controlEntry {
                sequence.marker = byte
                state = .controlParameter
            } else {
                state = .controlIgnore
            }
        case 0x20...0x2F:
            if sequence.intermediates.count < 4 { sequence.intermediates.append(byte) }
            state = .controlParameter
        case 0x40...0x7E:
            if parameterOpen == false && !sequence.parameters.isEmpty { openParameter() }
            state = .ground
            sequence.final = byte
            return .controlSequence
        default:
            state = .controlIgnore
        }
        return nil
    }

    private mutating func openParameter() {
        parameterOpen = true
        if sequence.parameters.count < Self.maxParameters { sequence.parameters.append(-1) }
    }

    private mutating func takeString(_ byte: UInt8) -> Action? {
        switch state {
        case .operatingSystem:
            if byte == 0x07 {
                state = .ground
                return .operatingSystemCommand
            }
            if byte == 0x1B {
                state = .operatingSystemEscape
            } else if byte == 0x18 || byte == 0x1A {
                state = .ground
            } else if string.count < Self.maxStringBytes {
                string.append(byte)
            }
            return nil
        case .operatingSystemEscape:
            // ST (ESC \) ends the command; any other ESC ends it and starts a new sequence.
            state = .ground
            if byte == UInt8(ascii: "\\") { return .operatingSystemCommand }
            state = .escape
            sequence = Sequence()
            return takeEscape(byte)
        case .ignoredString:
            if byte == 0x1B { state = .ignoredStringEscape } else if byte == 0x18 || byte == 0x1A { state = .ground }
            return nil
        default:
            if byte == UInt8(ascii: "\\") {
                state = .ground
                return nil
            }
            state = byte == 0x1B ? .ignoredStringEscape : .ignoredString
            return nil
        }
    }

    // MARK: - UTF-8

    private mutating func decode(_ byte: UInt8) -> Action? {
        if utf8.remaining > 0 {
            guard byte & 0xC0 == 0x80 else { return malformed(then: byte) }
            utf8.value = utf8.value << 6 | UInt32(byte & 0x3F)
            utf8.remaining -= 1
            guard utf8.remaining == 0 else { return nil }
            guard utf8.value >= utf8.minimum, let scalar = Unicode.Scalar(utf8.value) else { return printReplacement() }
            character = scalar
            return .print
        }
        switch byte {
        case 0x7F: return nil
        case 0xC2...0xDF: utf8 = (UInt32(byte & 0x1F), 1, 0x80)
        case 0xE0...0xEF: utf8 = (UInt32(byte & 0x0F), 2, 0x800)
        case 0xF0...0xF4: utf8 = (UInt32(byte & 0x07), 3, 0x10000)
        default: return printReplacement()
        }
        return nil
    }

    /// A character cut by `byte`: U+FFFD for it, and `byte` read afresh. Only ESC and C0
    /// controls can cut one here, and a lead byte in ground state: the replacement is printed,
    /// and the byte is taken again by the caller's next call.
    private mutating func malformed(then byte: UInt8) -> Action? {
        utf8.remaining = 0
        pendingByte = byte
        return printReplacement()
    }

    private mutating func printReplacement() -> Action? {
        character = "\u{FFFD}"
        return .print
    }

    /// A byte that cut a character, to read after its replacement (``takePending()``).
    package private(set) var pendingByte: UInt8?

    /// The byte that cut a character, read now: call after every ``Action/print`` while
    /// ``pendingByte`` is set.
    package mutating func takePending() -> Action? {
        guard let byte = pendingByte else { return nil }
        pendingByte = nil
        return take(byte)
    }
}
