import Foundation
import Testing

@testable import ActivityWire

@Suite("Display width")
struct DisplayWidthTests {
    /// Where `wcwidth` is needed: everywhere it can run, and always on CI (which installs it), so a
    /// broken installation fails there instead of skipping.
    static let oracle = WcwidthOracle.available || ProcessInfo.processInfo.environment["CI"] != nil

    @Test("a short string, stored inline, measures as the same text does anywhere else")
    func shortStrings() {
        let texts = [
            "", "12.3 files/s", "ETA 4s", "日本", "e\u{301}", "क\u{93F}", "a\u{200B}b", "🇫🇷", "❤\u{FE0F}", "\u{1B}[",
            "✔ Done", "a longer text that is stored out of line, 日本",
        ]
        for text in texts {
            let substring = text[...]
            #expect(DisplayWidth.of(text) == DisplayWidth.of(substring), "\(text.debugDescription)")
        }
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("日本") == 4)
    }

    @Test(
        "every code point has the width the wcwidth package gives it, controls 0 instead of -1",
        .enabled(if: oracle, "python3 with the wcwidth package is needed (python3 -m pip install wcwidth)")
    )
    func everyCodePoint() throws {
        let reference = try #require(WcwidthOracle.widths, "python3 -c 'import wcwidth' failed")
        try #require(
            reference.version == UnicodeTables.unicodeVersion,
            """
            the installed wcwidth knows Unicode \(reference.version), the table \(UnicodeTables.unicodeVersion): \
            run Scripts/generate-width-table.py (or install the wcwidth version named in UnicodeTables.swift)
            """)
        var mismatches: [String] = []
        var run = 0
        var checked = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            while run + 1 < reference.runs.count, reference.runs[run + 1].first <= value { run += 1 }
            let expected = reference.runs[run].width
            // The one deliberate difference: a control is -1 for wcwidth ("not printable"), 0 here,
            // because the sanitizer has removed it before anything is measured.
            let wanted = expected < 0 ? 0 : expected
            let width = DisplayWidth.scalarWidth(scalar)
            if width != wanted, mismatches.count < 20 {
                mismatches.append("U+\(String(value, radix: 16, uppercase: true)): \(width), wcwidth \(expected)")
            }
            checked += 1
        }
        #expect(checked == 0x110000 - 0x800)
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test("characters made wide after Unicode 14 take two columns, whatever the C library says")
    func newWideCharacters() {
        // U+16FF2, U+16FF3 (Unicode 17), U+1FAE9 (Unicode 16), U+1FA89 and U+1F6DC (Unicode 15).
        for value: UInt32 in [0x16FF2, 0x16FF3, 0x1FAE9, 0x1FA89, 0x1F6DC, 0x31350] {
            #expect(DisplayWidth.scalarWidth(Unicode.Scalar(value)!) == 2, "U+\(String(value, radix: 16))")
        }
    }

    static let clusters: [(String, Int)] = [
        ("abc", 3), ("日本語", 6), ("📦", 2), ("e\u{301}", 1), ("❤", 1), ("❤\u{FE0F}", 2), ("1\u{FE0F}\u{20E3}", 2),
        ("👍🏽", 2), ("🇩🇪", 2), ("👨\u{200D}👩\u{200D}👧", 2), ("🏳\u{FE0F}\u{200D}🌈", 2), ("कि", 2), ("क्ष", 2),
        ("\u{1100}\u{1161}\u{11A8}", 2), ("⌚\u{FE0E}", 2), ("a\u{FE0F}", 1), ("\u{16FF2}x", 3),
        ("🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", 2), ("\u{200B}", 0),
    ]

    @Test("text is measured by grapheme cluster: an emoji sequence is two columns, as modern terminals draw it")
    func clusters() {
        for (text, width) in Self.clusters {
            #expect(DisplayWidth.of(text) == width, "\(text.debugDescription)")
        }
    }

    @Test(
        "grapheme widths agree with wcwidth.wcswidth",
        .enabled(if: oracle, "python3 with the wcwidth package is needed (python3 -m pip install wcwidth)")
    )
    func clustersAgreeWithWcwidth() throws {
        let texts = Self.clusters.map(\.0)
        let reference = try #require(WcwidthOracle.stringWidths(texts))
        try #require(reference.count == texts.count)
        for (text, expected) in zip(texts, reference) {
            #expect(DisplayWidth.of(text) == expected, "\(text.debugDescription)")
        }
    }

    /// Runs of every Hangul leading jamo (U+1100–U+115F), alone, doubled, before a vowel and a
    /// final, and before a syllable: each run is one grapheme cluster.
    static let jamoRuns: [String] = (UInt32(0x1100)...0x115F).flatMap { value -> [String] in
        let jamo = String(Unicode.Scalar(value)!)
        return [jamo + jamo, jamo + jamo + jamo + "\u{1161}\u{11A8}", jamo + "가", jamo + "\u{A960}"]
    }

    @Test("a run of Hangul leading jamo takes two columns a jamo, as tmux, xterm and wcwidth draw it")
    func leadingJamoRuns() {
        for text in Self.jamoRuns {
            let jamo = text.unicodeScalars.filter { DisplayWidth.isLeadingJamo($0.value) }.count
            let syllables = text.unicodeScalars.filter { (0xAC00...0xD7A3).contains($0.value) }.count
            #expect(text.count == 1, "\(text.debugDescription) is \(text.count) clusters")
            #expect(DisplayWidth.of(text) == 2 * (jamo + syllables), "\(text.debugDescription)")
        }
    }

    @Test(
        "runs of each of the 96 Hangul leading jamo measure what wcwidth.wcswidth gives",
        .enabled(if: oracle, "python3 with the wcwidth package is needed (python3 -m pip install wcwidth)")
    )
    func leadingJamoAgreeWithWcwidth() throws {
        let reference = try #require(WcwidthOracle.stringWidths(Self.jamoRuns))
        try #require(reference.count == Self.jamoRuns.count)
        for (text, expected) in zip(Self.jamoRuns, reference) {
            #expect(DisplayWidth.of(text) == expected, "\(text.debugDescription)")
        }
    }

    @Test(
        "text read byte by byte measures what its grapheme clusters measure, whatever follows a character that stands alone"
    )
    func bytePathAgreesWithClusters() {
        // Characters the byte path takes, then what may join a cluster with them and sends the
        // text to the cluster path: a combining mark, a joiner, variation selectors, a Hangul final
        // consonant, an emoji modifier, a regional indicator, a control, CR LF.
        let standalone: [String] = ["a", " ", "›", "…", "▶", "█", "⠋", "é", "Ж", "日", "가", "\u{AD}", "\u{2194}", "✔"]
        let joiners: [String] = [
            "\u{301}", "\u{200D}", "\u{FE0F}", "\u{FE0E}", "\u{11A8}", "\u{1F3FD}", "\u{1F1E9}", "\u{7}", "\r\n", "👍",
        ]
        let pool = standalone + joiners
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15  // a fixed seed: the same texts every run
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var mismatches: [String] = []
        for _ in 0..<5_000 {
            let text = (0..<(1 + next(6))).map { _ in pool[next(pool.count)] }.joined()
            let clusterWidth = text.reduce(0) { $0 + DisplayWidth.of($1) }
            if DisplayWidth.of(text) != clusterWidth, mismatches.count < 10 {
                mismatches.append("\(text.debugDescription): \(DisplayWidth.of(text)), by cluster \(clusterWidth)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        // What makes the byte path exact: nothing it takes joins a cluster with a neighbour it takes.
        var joining: [String] = []
        for value in UInt32(0xA0)...0xD7A3 where DisplayWidth.standsAlone(value) {
            let scalar = String(Unicode.Scalar(value)!)
            if ("x" + scalar).count != 2 || (scalar + "x").count != 2, joining.count < 10 {
                joining.append("U+\(String(value, radix: 16, uppercase: true))")
            }
        }
        #expect(joining.isEmpty, "\(joining)")
        for scalar in standalone {
            let bytes = Array(scalar.utf8)
            #expect(bytes.withUnsafeBufferPointer(DisplayWidth.simpleWidth) != nil, "\(scalar.debugDescription)")
        }
    }

    @Test("truncating never splits a grapheme cluster and never overflows")
    func truncate() {
        #expect(DisplayWidth.truncate("日本語のテキスト", to: 7) == "日本語…")
        #expect(DisplayWidth.truncate("abcdef", to: 4) == "abc…")
        #expect(DisplayWidth.truncate("abc", to: 4) == "abc")
        #expect(DisplayWidth.truncate("ab👨\u{200D}👩\u{200D}👧cd", to: 4) == "ab…")
        #expect(DisplayWidth.truncate("ab👨\u{200D}👩\u{200D}👧cd", to: 5) == "ab👨\u{200D}👩\u{200D}👧…")
        #expect(DisplayWidth.truncate("ab👨\u{200D}👩\u{200D}👧cd", to: 6) == "ab👨\u{200D}👩\u{200D}👧cd")
        #expect(DisplayWidth.of(DisplayWidth.truncate("📦📦📦📦", to: 5)) <= 5)
        #expect(DisplayWidth.fit("日本", to: 6) == "日本  ")
        #expect(DisplayWidth.fit("日本語", to: 5) == "日本…")
        #expect(DisplayWidth.pad("❤\u{FE0F}", to: 3) == "❤\u{FE0F} ")
    }
}
