import Testing

@testable import ActivityTerminal

@Suite("TerminalModes: the modes a command turned on, and the bytes that undo them")
struct TerminalModesTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("the issue's modes are undone, the alternate screen last, and set again, it first")
    func issueModes() {
        var modes = TerminalModes()
        modes.feed(Self.bytes("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1h"))
        #expect(modes.isAlternateScreen)
        #expect(
            String(decoding: modes.resetSequence, as: UTF8.self)
                == "\u{1B}[?1l\u{1B}[?1000l\u{1B}[?25h\u{1B}[?1049l")
        #expect(
            String(decoding: modes.setSequence, as: UTF8.self)
                == "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1h")
    }

    @Test("a mode turned back, a sequence cut between reads, several modes in one sequence")
    func followed() {
        var modes = TerminalModes()
        let stream = Self.bytes("\u{1B}[?1002;2004h\u{1B}=\u{1B}[4h\u{1B}[3;9r")
        for byte in stream { modes.feed([byte]) }
        #expect(modes.applicationKeypad && modes.insert)
        #expect(modes.scrollRegion?.top == 3 && modes.scrollRegion?.bottom == 9)
        #expect(
            String(decoding: modes.resetSequence, as: UTF8.self)
                == "\u{1B}7\u{1B}[r\u{1B}8\u{1B}[4l\u{1B}>\u{1B}[?1002l\u{1B}[?2004l")
        modes.feed(Self.bytes("\u{1B}[?1002;2004l\u{1B}>\u{1B}[4l\u{1B}[r"))
        #expect(!modes.isChanged)
        #expect(modes.resetSequence.isEmpty && modes.setSequence.isEmpty)
    }

    @Test("modes inside an OSC string or a DCS are not modes; a full reset forgets them all")
    func strings() {
        var modes = TerminalModes()
        modes.feed(Self.bytes("\u{1B}]0;[?25l\u{07}\u{1B}P\u{1B}[?1000h\u{1B}\\"))
        #expect(!modes.isChanged)
        modes.feed(Self.bytes("\u{1B}[?25l\u{1B}c"))
        #expect(!modes.isChanged)
    }
}

@Suite("VTParser: the DEC/ANSI parser's states")
struct VTParserTests {
    /// What `text` gives, one entry an action: text, controls and sequences in a short form.
    static func actions(_ bytes: [UInt8]) -> [String] {
        var parser = VTParser()
        var result: [String] = []
        for byte in bytes {
            var action = parser.take(byte)
            while let taken = action {
                switch taken {
                case .print: result.append(String(Character(parser.character)))
                case .execute(let control): result.append("^\(control)")
                case .controlSequence:
                    let s = parser.sequence
                    let marker = s.marker == 0 ? "" : String(Character(Unicode.Scalar(s.marker)))
                    result.append(
                        "CSI\(marker)\(s.parameters.map(String.init).joined(separator: ","))\(UnicodeScalar(s.final))")
                case .escape: result.append("ESC\(UnicodeScalar(parser.sequence.final))")
                case .operatingSystemCommand: result.append("OSC:" + String(decoding: parser.string, as: UTF8.self))
                }
                action = parser.takePending()
            }
        }
        return result
    }

    @Test("text, UTF-8 cut anywhere, malformed bytes as U+FFFD")
    func text() {
        #expect(Self.actions(Array("a日\n".utf8)) == ["a", "日", "^10"])
        #expect(Self.actions([0xE6, 0x97, 0x41, 0xFF]) == ["\u{FFFD}", "A", "\u{FFFD}"])
    }

    @Test("control sequences: marker, omitted parameters, C0 inside, CAN abandons")
    func controlSequences() {
        #expect(
            Self.actions(Array("\u{1B}[?1049h\u{1B}[;5H\u{1B}[2\nJ".utf8))
                == ["CSI?1049h", "CSI-1,5H", "^10", "CSI2J"])
        #expect(Self.actions(Array("\u{1B}[12\u{18}x".utf8)) == ["x"])
    }

    @Test("OSC ends with BEL or ST; DCS is skipped to its ST; ESC sequences")
    func strings() {
        #expect(Self.actions(Array("\u{1B}]2;t\u{07}\u{1B}]0;u\u{1B}\\x".utf8)) == ["OSC:2;t", "OSC:0;u", "x"])
        #expect(Self.actions(Array("\u{1B}Pq#0\u{1B}\\\u{1B}7y".utf8)) == ["ESC7", "y"])
    }

    @Test("keyboardAndMouse keeps the input modes and the keypad, not the screen's modes")
    func keyboardAndMouse() {
        var modes = TerminalModes()
        modes.feed(Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000;2004h\u{1B}=\u{1B}[3;9r".utf8))
        let input = modes.keyboardAndMouse
        #expect(!input.isAlternateScreen && input.scrollRegion == nil && input.applicationKeypad)
        #expect(
            String(decoding: input.resetSequence, as: UTF8.self) == "\u{1B}>\u{1B}[?1000l\u{1B}[?2004l")
    }
}
