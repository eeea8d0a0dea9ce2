import Foundation
import Testing

@testable import ActivityTerminal

/// The rows `activity run` makes final before they scroll off: those further above the cursor
/// than the command has ever gone back up (``CommandScreen/settleableRowCount``).
@Suite("CommandScreen: rows final before they scroll off")
struct CommandScreenSettleTests {
    static func screen(_ text: String, columns: Int = 100, rows: Int = 30) -> CommandScreen {
        var screen = CommandScreen(columns: columns, rows: rows)
        screen.feed(Array(text.utf8))
        return screen
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("plain lines: every finished line may be final at once, the cursor's row stays")
    func plainLines() {
        var screen = Self.screen("one\r\ntwo\r\nthr")
        #expect(screen.redraw.depth == 0)
        #expect(screen.settleableRowCount == 2)
        screen.settle(rows: 5)
        #expect(Self.text(screen.takeFinalBytes()) == "one\r\ntwo\r\n")
        #expect(screen.cursor == (0, 3) && screen.rows[0].text == "thr")
        #expect(screen.rowsAbove == 2)
        screen.feed(Array("ee\r\n".utf8))
        #expect(screen.settleableRowCount == 1)
        screen.finish()
        #expect(Self.text(screen.takeFinalBytes()) == "three\r\n")
    }

    @Test("a bar redrawn under a bar: all but the two rows of the display")
    func barUnderBar() {
        // tqdm's position=1: a line feed, the inner bar, the cursor back up to the outer one.
        var screen = Self.screen("log line\r\nouter 1%\n\rinner 5%\u{1B}[A\router 2%")
        #expect(screen.redraw.depth == 1)
        #expect(screen.settleableRowCount == 1)
        screen.settle(rows: screen.settleableRowCount)
        #expect(Self.text(screen.takeFinalBytes()) == "log line\r\n")
        #expect(screen.rows[0].text == "outer 2%" && screen.rows[1].text == "inner 5%")
        #expect(screen.settleableRowCount == 0, "the display's rows stay live")
    }

    @Test(
        "recorded programs: the depth of their redraws",
        arguments: [
            ("tqdm-nested.bytes", 1), ("cursor-up.bytes", 3), ("rich-progress.bytes", 1), ("less-X.bytes", 0),
        ])
    func recordedDepth(name: String, depth: Int) throws {
        var screen = CommandScreen(columns: 100, rows: 30)
        screen.feed(try ScreenPicture.fixture(name))
        #expect(screen.redraw.depth == depth)
    }

    @Test("a display redrawn in place, made final a frame late, leaves what it leaves unsettled")
    func cursorUpSettled() throws {
        let bytes = try ScreenPicture.fixture("cursor-up.bytes")
        var whole = CommandScreen(columns: 100, rows: 30)
        whole.feed(bytes)
        whole.finish()
        // Each frame is one write, as the script's printf and sleep make it. A row is made final
        // only when it could already be after the frame before: its first frame cannot show how
        // far up the next one goes (`TerminalPump` holds rows for `finalDelay`).
        var settled = CommandScreen(columns: 100, rows: 30)
        var output: [UInt8] = []
        var noted = 0
        for frame in Self.frames(of: bytes) {
            settled.feed(frame)
            let boundary = settled.rowsAbove + settled.settleableRowCount
            settled.settle(rows: min(noted, boundary) - settled.rowsAbove)
            noted = max(noted, boundary)
            output += settled.takeFinalBytes()
        }
        settled.finish()
        output += settled.takeFinalBytes()
        #expect(Self.text(output) == Self.text(whole.takeFinalBytes()))
        #expect(Self.text(output).hasPrefix("start\r\n"))
    }

    @Test("made final at once, a display redrawn in place becomes lines of its own")
    func firstFrameAtOnce() throws {
        var settled = CommandScreen(columns: 100, rows: 30)
        for frame in Self.frames(of: try ScreenPicture.fixture("cursor-up.bytes")) {
            settled.feed(frame)
            settled.settle(rows: settled.settleableRowCount)
        }
        settled.finish()
        let lines = Self.text(settled.takeFinalBytes()).components(separatedBy: "\r\n")
        // Its first frame is final before the cursor comes back up, so the cursor has nowhere to
        // go: every frame is printed, as issue 28 saw it.
        #expect(lines.filter { $0.contains("job a") }.count == 5, "\(lines)")
    }

    /// `bytes` cut before each `CSI 3 A` (the start of a redraw).
    static func frames(of bytes: [UInt8]) -> [[UInt8]] {
        let up = Array("\u{1B}[3A".utf8)
        var frames: [[UInt8]] = [[]]
        var index = 0
        while index < bytes.count {
            if index + up.count <= bytes.count, Array(bytes[index..<index + up.count]) == up { frames.append([]) }
            frames[frames.count - 1].append(bytes[index])
            index += 1
        }
        return frames
    }

    @Test("nothing is settled under a scroll region, on the alternate screen, or above a deep redraw")
    func nothingSettled() throws {
        var region = CommandScreen(columns: 100, rows: 30)
        region.feed(Array(try ScreenPicture.fixture("scroll-region.bytes").prefix(600)))
        #expect(region.scrollRegion.bottom == 28)
        #expect(region.settleableRowCount == 0)
        let alternate = Self.screen("a\r\nb\r\n\u{1B}[?1049hfull\r\nscreen\r\n")
        #expect(alternate.settleableRowCount == 0)
        let deep = Self.screen("a\r\nb\r\nc\r\nd\u{1B}[3Ax\u{1B}[3B")
        #expect(deep.redraw.depth == 3)
        #expect(deep.settleableRowCount == 0)
    }

    @Test("the alternate screen's moves do not count; leaving it restores the main screen's depth")
    func alternateScreenDepth() {
        let screen = Self.screen("a\r\nb\r\n\u{1B}[?1049h\u{1B}[20;1Hdown\u{1B}[Hup\u{1B}[?1049lc")
        #expect(screen.redraw.depth == 0)
        #expect(screen.settleableRowCount == 2)
    }

    @Test("clearing the screen starts the measure afresh")
    func clearResets() {
        var screen = Self.screen("a\r\nb\r\nc\u{1B}[H\u{1B}[2Jone\r\ntwo\r\n")
        #expect(screen.redraw.depth == 0)
        #expect(screen.settleableRowCount == 2)
        _ = screen.takeFinalBytes()
    }
}
