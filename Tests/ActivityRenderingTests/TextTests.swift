import ActivityRendering
import ActivityTerminal
import ActivityWire
import Testing

@Suite("Sanitizing, display width and formatting")
struct TextTests {
    @Test("no producer text can move the cursor, set the title, clear the screen or forge a line")
    func sanitize() {
        let cases: [(String, String)] = [
            ("\u{1B}[2Jclear", "clear"),
            ("\u{1B}]0;owned\u{07}title", "title"),
            ("\u{1B}]8;;http://x\u{1B}\\link", "link"),
            ("line\r✔ Done", "line ✔ Done"),
            ("up\u{1B}[5A\u{1B}[Kx", "upx"),
            ("c1\u{9B}31mred", "c1red"),
            ("del\u{7F}bell\u{07}nul\u{00}", "delbellnul"),
            ("a\nb\tc\u{2028}d", "a b c d"),
            ("\u{1B}", ""),
            ("\u{1B}7save", "save"),
            ("plain ascii", "plain ascii"),
            ("日本 é 📦", "日本 é 📦"),
        ]
        for (input, expected) in cases {
            let output = TextSanitizer.display(input)
            #expect(output == expected, "\(input.debugDescription)")
            #expect(!output.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        }
        #expect(TextSanitizer.escaped("a\u{1B}[2J\n\u{9B}") == "a\\x1b[2J\\n\\x9b")
        #expect(TextSanitizer.display(bytes: [0x66, 0xFF, 0x1B, 0x5B, 0x41, 0x67]) == Array("f\u{FFFD}g".utf8))
    }

    @Test("display width counts CJK and emoji as two columns")
    func width() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("📦") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.truncate("日本語のテキスト", to: 7) == "日本語…")
        #expect(DisplayWidth.truncate("abcdef", to: 4) == "abc…")
        #expect(DisplayWidth.truncate("abc", to: 4) == "abc")
        #expect(DisplayWidth.of(DisplayWidth.truncate("📦📦📦📦", to: 5)) <= 5)
    }

    @Test("numbers, bytes, rates and durations")
    func formatting() {
        #expect(Formatting.fixed(3.14159, decimals: 2) == "3.14")
        #expect(Formatting.fixed(-0.004, decimals: 2) == "0.00")
        #expect(Formatting.count(42) == "42")
        #expect(Formatting.count(12_345_678) == "12.3M")
        #expect(Formatting.bytes(512) == "512 B")
        #expect(Formatting.bytes(1536) == "1.50 KiB")
        #expect(Formatting.bytes(5 * 1_048_576) == "5.00 MiB")
        #expect(Formatting.bytes(3 * 1_073_741_824) == "3.00 GiB")
        #expect(Formatting.rate(1_048_576, unit: "bytes") == "1.00 MiB/s")
        #expect(Formatting.rate(3.6, unit: "files") == "3.60 files/s")
        #expect(Formatting.rate(250, unit: nil) == "250/s")
        #expect(Formatting.progress(completed: 3, total: 10, unit: "files") == "3/10 files")
        #expect(Formatting.duration(3.21) == "3.2s")
        #expect(Formatting.duration(65) == "1m05s")
        #expect(Formatting.duration(7322) == "2h02m")
        #expect(Formatting.eta(4.2) == "5s")
        #expect(Formatting.percent(0.456) == " 45%")
        #expect(Formatting.timestamp(0) == "1970-01-01T00:00:00.000Z")
        #expect(Formatting.timestamp(1_764_417_600.25) == "2025-11-29T12:00:00.250Z")
        #expect(Formatting.timestamp(951_782_400) == "2000-02-29T00:00:00.000Z")
    }

    @Test("plain mode's byte formats write what the text formats show")
    func byteFormats() {
        func bytes(_ body: (inout [UInt8]) -> Void) -> String {
            var bytes: [UInt8] = []
            body(&bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        let values: [Double] = [
            0, 0.004, 0.29, 0.5, 1, 2.5, 9.994, 9.996, 12.34, 59.94, 59.96, 99.94, 99.96, 100, 999.5, 1023, 1536,
            3599.5, 3600, 7322, 86_399, 360_000, 9_999_999, 12_345_678, 1.5e9, 2e12, 3e15, .nan, .infinity, -3,
        ]
        for value in values {
            #expect(bytes { Formatting.appendCount(value, to: &$0) } == Formatting.count(value))
            #expect(bytes { Formatting.appendDuration(value, to: &$0) } == Formatting.duration(value))
            #expect(bytes { Formatting.appendETA(value, to: &$0) } == Formatting.eta(value))
            #expect(bytes { DecimalText.appendBytes(value, to: &$0) } == Formatting.bytes(value))
            for unit in [nil, "", "files", "bytes"] {
                #expect(
                    bytes { Formatting.appendRate(value, unit: unit, to: &$0) } == Formatting.rate(value, unit: unit))
                #expect(
                    bytes { Formatting.appendProgress(completed: value, total: 1000, unit: unit, to: &$0) }
                        == Formatting.progress(completed: value, total: 1000, unit: unit))
            }
            #expect(Formatting.rateNumber(value, suffix: " files/s") == Formatting.rate(value, unit: "files"))
        }
        for percent in 0...100 {
            let fraction = Double(percent) / 100
            let text = bytes { Formatting.appendPercent(fraction, to: &$0) }
            #expect(String(repeating: " ", count: 4 - text.utf8.count) + text == Formatting.percent(fraction))
        }
        // Equal keys, equal texts; the texts either side of a change have different keys.
        for (a, b) in [(12.31, 12.34), (59.94, 59.9), (61.2, 61.9), (3600.1, 3600.9)] {
            #expect(Formatting.durationKey(a) == Formatting.durationKey(b))
            #expect(Formatting.duration(a) == Formatting.duration(b))
        }
        for (a, b) in [(12.34, 12.36), (59.94, 59.96), (61.9, 62.0)] {
            #expect(Formatting.durationKey(a) != Formatting.durationKey(b))
        }
    }

    @Test("the style follows the locale and the colour variables")
    func style() {
        #expect(TerminalStyle.detect(environment: ["LANG": "en_US.UTF-8"]).unicode)
        #expect(!TerminalStyle.detect(environment: ["LANG": "C"]).unicode)
        #expect(!TerminalStyle.detect(environment: ["LC_ALL": "C", "LANG": "en_US.UTF-8"]).unicode)
        #expect(!TerminalStyle.detect(environment: [:]).unicode)
        #expect(TerminalStyle.detect(environment: [:]).color)
        #expect(!TerminalStyle.detect(environment: ["NO_COLOR": "1"]).color)
        #expect(TerminalStyle.detect(environment: ["NO_COLOR": ""]).color)
        #expect(!TerminalStyle.detect(environment: ["CLICOLOR": "0"]).color)
        #expect(TerminalStyle.detect(environment: ["CLICOLOR": "0", "CLICOLOR_FORCE": "1"]).color)
        #expect(!TerminalStyle.detect(environment: ["NO_COLOR": "1", "CLICOLOR_FORCE": "1"]).color)
    }
}
