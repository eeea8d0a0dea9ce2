import Testing

@testable import ActivityWire

@Suite("Sanitizing")
struct TerminalSanitizerTests {
    /// Scalars that must never reach a display: controls, bidirectional controls, invisibles.
    static func isDangerous(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value)
            || [0xAD, 0x61C, 0x200B, 0x200C, 0x200E, 0x200F, 0x3164, 0xFEFF].contains(value)
            || (0x202A...0x202E).contains(value) || (0x2060...0x206F).contains(value)
            || (0xE0000...0xE007F).contains(value)
    }

    @Test("no producer text can move the cursor, set the title, clear the screen or forge a line")
    func escapes() {
        let cases: [(String, String)] = [
            ("\u{1B}[2Jclear", "clear"),
            ("\u{1B}]0;owned\u{07}title", "title"),
            ("\u{1B}]8;;http://x\u{1B}\\link", "link"),
            ("line\r✔ Done", "line ✔ Done"),
            ("c1\u{9B}31mred", "c1red"),
            ("files\u{1B}]0;PWNED\u{07}\u{1B}[2J\u{9B}31m", "files"),
            ("a\nb\tc\u{2028}d", "a b c d"),
            ("日本 é 📦", "日本 é 📦"),
        ]
        for (input, expected) in cases {
            #expect(TerminalSanitizer.display(input) == expected, "\(input.debugDescription)")
        }
    }

    /// The examples of the Trojan Source paper (CVE-2021-42574): text that reads one way and runs
    /// another.
    static let trojanSource = [
        "access_level != \"user\u{202E} \u{2066}// Check if admin\u{2069} \u{2066}\"",
        "/*\u{202E} } \u{2066}if (isAdmin)\u{2069} \u{2066} begin admins only */",
        "#\u{202E}\u{2066}return\u{2069}\u{2066}",
        "\u{202D}override\u{202C} \u{202B}embed\u{202A}ltr \u{200E}\u{200F}\u{61C}marks",
        "unterminated \u{202E}override",
        "un\u{200B}seen\u{200C}join\u{2060}word\u{FEFF}bom\u{2062}op\u{AD}hy\u{3164}filler",
        "tag\u{E0041}\u{E0042}smuggled",
    ]

    @Test("bidirectional controls and invisible characters are removed for display", arguments: trojanSource)
    func trojanSourceDisplay(_ text: String) {
        let shown = TerminalSanitizer.display(text)
        #expect(!shown.unicodeScalars.contains(where: Self.isDangerous), "\(shown.debugDescription)")
        // What stays is the visible text, in its order.
        let visible = String(String.UnicodeScalarView(text.unicodeScalars.filter { !Self.isDangerous($0) }))
        #expect(shown == visible)
    }

    @Test("an unterminated override never reaches the text after it")
    func unterminated() {
        let field = TerminalSanitizer.display("name\u{202E}")
        #expect(field + " done" == "name done")
        #expect(TerminalSanitizer.display("\u{2067}isolate") == "isolate")
    }

    @Test("a log file shows what the display removes as escapes", arguments: trojanSource)
    func trojanSourceEscaped(_ text: String) {
        let escaped = TerminalSanitizer.escaped(text)
        #expect(!escaped.unicodeScalars.contains(where: Self.isDangerous), "\(escaped.debugDescription)")
        #expect(escaped.contains("\\u{") || escaped.contains("\\x"))
    }

    @Test("escapes name each removed character")
    func escapedForm() {
        #expect(TerminalSanitizer.escaped("a\u{1B}[2J\n\u{9B}") == "a\\x1b[2J\\n\\x9b")
        #expect(TerminalSanitizer.escaped("user\u{202E}x\u{2066}") == "user\\u{202e}x\\u{2066}")
        #expect(TerminalSanitizer.escaped("a\u{200D}b") == "a\\u{200d}b")
    }

    @Test("a zero-width joiner stays inside an emoji sequence, and only there")
    func joiner() {
        let family = "👨\u{200D}👩\u{200D}👧"
        let rainbow = "🏳\u{FE0F}\u{200D}🌈"
        let toned = "👩🏽\u{200D}💻"
        for emoji in [family, rainbow, toned] {
            #expect(TerminalSanitizer.display(emoji) == emoji)
            #expect(TerminalSanitizer.escaped(emoji) == emoji)
        }
        #expect(TerminalSanitizer.display("a\u{200D}b") == "ab")
        #expect(TerminalSanitizer.display("👨\u{200D}") == "👨")
        #expect(TerminalSanitizer.display("\u{200D}👨") == "👨")
        #expect(TerminalSanitizer.display("👨\u{200D}\u{200D}👩") == "👨\u{200D}👩")
        #expect(TerminalSanitizer.display("👨\u{200D}\u{1B}[2J👩") == "👨👩")
    }

    @Test("raw bytes: invalid UTF-8 becomes U+FFFD, clean lines come back unchanged")
    func bytes() {
        #expect(TerminalSanitizer.display(bytes: [0x66, 0xFF, 0x1B, 0x5B, 0x41, 0x67]) == Array("f\u{FFFD}g".utf8))
        #expect(TerminalSanitizer.display(bytes: Array("日本 ok".utf8)) == Array("日本 ok".utf8))
        #expect(TerminalSanitizer.display(bytes: Array("x\u{202E}y".utf8)) == Array("xy".utf8))
    }

    @Test("a passed-through line's tabs become spaces to the next multiple of 8; a field's, one space")
    func tabs() {
        #expect(TerminalSanitizer.display(bytes: Array("x\tcol2\tc3".utf8)) == Array("x       col2    c3".utf8))
        #expect(TerminalSanitizer.display(bytes: Array("12345678\tx".utf8)) == Array("12345678        x".utf8))
        #expect(TerminalSanitizer.display(bytes: Array("日本\tx\u{1B}[2J".utf8)) == Array("日本    x".utf8))
        #expect(
            TerminalSanitizer.expandingTabs(Array("\u{1B}[31mab\u{1B}[0m\tc".utf8))
                == Array("\u{1B}[31mab\u{1B}[0m      c".utf8))
        #expect(TerminalSanitizer.display("a\tb") == "a b")
    }

    @Test("a field's tabs and line breaks become spaces beside any other text, whatever else it holds")
    func spacedFields() {
        let cases: [(String, String)] = [
            (
                "warning: variable 'x' was never used\tsee \"Main.swift\"",
                "warning: variable 'x' was never used see \"Main.swift\""
            ),
            ("\tpasse 3 — «optimisation» ✓\r\n", " passe 3 — «optimisation» ✓  "),
            ("日本\t語\n", "日本 語 "),
            ("tab\tthen \u{1B}[31mred", "tab then red"),
            ("tab\tthen\u{202E}override", "tab thenoverride"),
            ("family\t👨\u{200D}👩\u{200D}👧", "family 👨\u{200D}👩\u{200D}👧"),
            ("stray\tjoiner\u{200D}x", "stray joinerx"),
            ("line\u{2028}sep\tx", "line sep x"),
        ]
        for (input, expected) in cases {
            #expect(TerminalSanitizer.display(input) == expected, "\(input.debugDescription)")
        }
        #expect(TerminalSanitizer.display(bytes: Array("a\tb\nc".utf8)) == Array("a       b c".utf8))
    }

    @Test("ASCII terminals get question marks for everything else")
    func ascii() {
        #expect(TerminalSanitizer.ascii("Größe 📦") == "Gr??e ?")
    }

    @Test("the byte check that lets clean text skip the scalars agrees with classify on every scalar")
    func byteCheckAgreesWithClassify() {
        // holdsOnlyShownBytes spells out from the UTF-8 bytes what classify drops: it may send
        // a kept scalar to the scalar check, never pass one classify does not keep.
        var wronglyPassed: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let bytes = Array(String(Character(scalar)).utf8)
            let passes = bytes.withUnsafeBufferPointer(TerminalSanitizer.holdsOnlyShownBytes)
            if passes, TerminalSanitizer.classify(scalar) != .keep { wronglyPassed.append(value) }
        }
        #expect(wronglyPassed.isEmpty, "\(wronglyPassed.prefix(10).map { String($0, radix: 16) })")
        // And a dash, quotes and a mark pass without the scalars.
        let message = Array("passe 3 — «optimisation» ✓ “fini”".utf8)
        #expect(message.withUnsafeBufferPointer(TerminalSanitizer.holdsOnlyShownBytes))
    }
}
