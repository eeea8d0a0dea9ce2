import ActivityAdapters
import ActivityWire
import TestSupport
import Testing

/// What the rich and indicatif adapters make of the shapes their captures show once: units,
/// redraws read as they come, rows that share a description, displays one after another.
@Suite("Adapters: rich and indicatif rows")
struct BarLibraryTests {
    /// Each capture's activities with their units: bytes for DownloadColumn and `{bytes}`, percent
    /// of 100 for a percentage alone, none for a count.
    @Test(
        "units",
        arguments: [
            ("rich/rich-download-pty-C.txt", "rich", ["bytes"]), ("rich/rich-track-pty-C.txt", "rich", ["%"]),
            ("rich/rich-columns-pty-C.txt", "rich", [nil, nil]),
            ("indicatif/indicatif-bytes-pty-C.txt", "indicatif", ["bytes"]),
            ("indicatif/indicatif-default-pty-C.txt", "indicatif", [nil]),
        ] as [(String, String, [String?])])
    func units(_ file: String, _ adapter: String, _ units: [String?]) throws {
        let adapted = Fixture.adapt(try Fixture.bytes(file), with: adapter)
        #expect(adapted.activities.map(\.unit) == units)
    }

    @Test(
        "on a terminal every redraw is read as it comes, not only the last frame",
        arguments: [
            ("rich/rich-two-pty-C.txt", "rich"), ("indicatif/indicatif-multi-pty-C.txt", "indicatif"),
            ("indicatif/indicatif-template-pty-C.txt", "indicatif"),
        ])
    func redraws(_ file: String, _ adapter: String) throws {
        let adapted = Fixture.adapt(try Fixture.bytes(file), with: adapter, chunkSize: 333)
        #expect(adapted.activities.allSatisfy { $0.progressEvents >= 5 }, "\(adapted.activities)")
    }

    @Test("indicatif's {msg} is the message, and the last one stays")
    func indicatifMessage() throws {
        let adapted = Fixture.adapt(try Fixture.bytes("indicatif/indicatif-template-pty-C.txt"), with: "indicatif")
        let messages = adapted.events.compactMap { event -> String? in
            if case .progress(let progress) = event { return progress.message }
            return nil
        }
        #expect(messages.last == "done")
    }

    /// rich rows as a terminal gets them: the first row of a frame after `\r ESC[2K`.
    static func richFrame(_ rows: [String]) -> String {
        "\r\u{1B}[2K" + rows.joined(separator: "\r\n")
    }

    @Test("two rich tasks with the same description are two activities")
    func richSameDescription() {
        let frames =
            Self.richFrame(["Copying ━━━━╺━━━━━  10% 0:00:03", "Copying ━━━━━━━━╺━  80% 0:00:01"])
            + Self.richFrame(["Copying ━━━━━━━━━━ 100% 0:00:00", "Copying ━━━━━━━━━━ 100% 0:00:00"]) + "\r\n"
        let adapted = Fixture.adapt(Array(frames.utf8), with: "rich", chunkSize: 17)
        #expect(
            adapted.activities.map(\.description) == ["Copying success 100.0/100.0 ", "Copying success 100.0/100.0 "])
        #expect(adapted.passthroughText.isEmpty)
    }

    @Test("a rich display that stops ends its finished tasks; the next display's are new activities")
    func richDisplays() {
        let stop = "\r\n\u{1B}[?25h"
        let first = Self.richFrame(["Pass ━━━━━━━━━━ 3/3 0:00:00"]) + stop
        let second = Self.richFrame(["Pass ━━━━╺━━━━━ 1/3 0:00:01"]) + stop
        let adapted = Fixture.adapt(Array((first + second).utf8), with: "rich", exitStatus: 1)
        #expect(
            adapted.activities.map(\.description) == [
                "Pass success 3.0/3.0 ", "Pass failure 1.0/3.0 rich exited with status 1",
            ])
        // The first ended when its display stopped, before the second began.
        let ends = adapted.events.enumerated().filter { if case .end = $0.element { true } else { false } }
        let begins = adapted.events.enumerated().filter { if case .begin = $0.element { true } else { false } }
        #expect(ends.first.map(\.offset) ?? .max < begins.last.map(\.offset) ?? 0)
    }

    @Test("a new indicatif bar at a finished bar's row ends it and begins")
    func indicatifNextBar() {
        let text = "\r\u{1B}[2K██████████ 4/4\r\u{1B}[2K░░░░░░░░░░ 0/6\r\u{1B}[2K█████░░░░░ 3/6"
        let adapted = Fixture.adapt(Array(text.utf8), with: "indicatif", exitStatus: 0)
        #expect(adapted.activities.map(\.description) == ["Progress success 4.0/4.0 ", "Progress success 3.0/6.0 "])
    }

    @Test("an indicatif bar drawn with spaces (progress_chars(\"=> \")) is one bar, its prefix the title")
    func indicatifSpacedBar() {
        let text =
            "\r\u{1B}[2K   Compiling [=====>              ] 3/12 serde\r\u{1B}[2K   Compiling [====================] 12/12 done"
        let adapted = Fixture.adapt(Array(text.utf8), with: "indicatif")
        #expect(adapted.activities.map(\.description) == ["Compiling success 12.0/12.0 "])
        #expect(adapted.passthroughText.isEmpty)
    }

    @Test(
        "a command that draws a tqdm bar and then rich's has both read, in a pipe and on a terminal",
        arguments: [false, true])
    func twoLibraries(_ onScreen: Bool) throws {
        let suffix = onScreen ? "-pty-C.txt" : "-C.txt"
        let bytes = try Fixture.bytes("tqdm/tqdm-desc\(suffix)") + Fixture.bytes("rich/rich-track\(suffix)")
        let adapted =
            onScreen
            ? ScreenReplay.adapt(bytes, with: "bars", exitStatus: 0) : Fixture.adapt(bytes, with: "bars", exitStatus: 0)
        #expect(adapted.activities.map(\.title) == ["Training", "Processing..."], "\(adapted.activities)")
        #expect(adapted.activities.allSatisfy { $0.status == .success && $0.completed == $0.total })
    }

    @Test(
        "an indicatif MultiProgress whose last row fills the screen: the line printed after it wraps, no bar is made of it"
    )
    func indicatifFullLastRow() {
        // indicatif leaves its last frame without a line end: `println!` after it writes on the
        // bar's row, and there the full row wraps into the next, which reads as one line.
        let row = { (prefix: String, count: Int, total: Int, message: String) in
            let tail = " \(count)/\(total)\(message.isEmpty ? "" : " " + message)"
            let width = 100 - prefix.count - 1 - tail.count
            let done = width * count / total
            return prefix + " " + String(repeating: "█", count: done) + String(repeating: "░", count: width - done)
                + tail
        }
        let first = "\r\u{1B}[2K" + row("alpha", 20, 40, "") + "\r\n\u{1B}[2K" + row("beta", 40, 80, "")
        let last =
            "\r\u{1B}[2K\u{1B}[1A\r\u{1B}[2K" + row("alpha", 40, 40, "") + "\r\n\u{1B}[2K" + row("beta", 80, 80, "done")
        let adapted = ScreenReplay.adapt(chunks: [first, last, "ind done\r\n"].map { Array($0.utf8) }, with: "bars")
        #expect(adapted.activities.map(\.description) == ["alpha success 40.0/40.0 ", "beta success 80.0/80.0 "])
    }

    @Test("an indicatif MultiProgress redrawn under a line it printed (println) keeps each bar one activity")
    func indicatifPrintlnAbove() {
        // indicatif's redraw: up to the first row, erase each, then a `println` line and the rows.
        let row = { (name: String, count: Int, total: Int) in
            let width = 60 - name.count - 1 - " \(count)/\(total) ".count
            let done = width * count / total
            return name + " " + String(repeating: "█", count: done) + String(repeating: "░", count: width - done)
                + " \(count)/\(total) "
        }
        let redraw = "\u{1B}[1A\r\u{1B}[2K\u{1B}[1B\r\u{1B}[2K\u{1B}[1A"
        let frames = (0..<40).map { step in
            (step == 0 ? "" : redraw) + (step == 10 ? "hello from println\r\n" : "")
                + row("alpha", min(step + 1, 20), 20)
                + "\r\n" + row("beta", step + 1, 40)
        }
        let adapted = ScreenReplay.adapt(
            chunks: (frames + ["\r\n"]).map { Array($0.utf8) }, with: "bars", exitStatus: 0)
        #expect(adapted.activities.map(\.description) == ["alpha success 20.0/20.0 ", "beta success 40.0/40.0 "])
    }

    @Test(
        "lines that only look like rows pass through",
        arguments: [
            "━━━━━━━━━━ Section ━━━━━━━━━━\n", "Results ━━━━━━━━━━━━━━━━\n", "━━━━x 45%\n", "[=====] 1/2 passed\n",
            "█████ done\n", "░░ 1/2\n",
            "copied 45%━ 0:00:01\n",
        ])
    func lookalikes(_ text: String) {
        for adapter in ["rich", "indicatif"] {
            let adapted = Fixture.adapt(Array(text.utf8), with: adapter)
            #expect(adapted.activities.isEmpty, "\(adapter): \(text)")
            #expect(adapted.passthroughText == text)
        }
    }
}
