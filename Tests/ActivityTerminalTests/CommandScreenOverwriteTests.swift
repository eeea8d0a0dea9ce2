import Testing

@testable import ActivityTerminal

/// The frames a command's redraws overwrite within one read (``CommandScreen/takeOverwrittenFrames()``):
/// what an adapter reading the rows would otherwise never see.
@Suite("CommandScreen: frames overwritten within a read")
struct CommandScreenOverwriteTests {
    static func frames(_ text: String, notes: Bool = true) -> [[String]] {
        var screen = CommandScreen(columns: 40, rows: 10)
        screen.notesOverwrites = notes
        screen.feed(Array(text.utf8))
        return screen.takeOverwrittenFrames().map { frame in
            frame.lines.map { String(decoding: $0.bytes, as: UTF8.self) }
        }
    }

    @Test("a row rewritten after \\r: each state before the last, once")
    func statusRow() {
        #expect(Self.frames("\ra   0%\ra 100%\rb   0%\rb   0%\rb  50%") == [["a   0%"], ["a 100%"], ["b   0%"]])
    }

    @Test("a display redrawn by cursor-up and erases: each whole frame, noted at its redraw's first erase")
    func display() {
        // rich's redraw: \r, then erase and up over each row but the top one, then erase it.
        // The first frame is not known to be redrawn until the cursor goes up: the row its
        // first `\r` goes back over is noted then, and the rows the cursor goes up over join it.
        let redraw = "\r\u{1B}[2K\u{1B}[1A\u{1B}[2K"
        let frames = Self.frames("a 1%\r\nb 1%" + redraw + "a 100%\r\nb 50%" + redraw + "c 0%\r\nb 60%")
        #expect(frames == [["a 1%", "b 1%"], ["a 100%", "b 50%"]])
    }

    @Test("a display's first frame, redrawn by a cursor-up before any erase: noted whole")
    func firstFrameGoneUpOver() {
        // tqdm's nested bars: the inner bar drawn on the row below, then back up to the outer.
        // (A row rewritten after `\r` in the middle of a redraw notes the rows as they stand then.)
        let up = "\u{1B}[A"
        let frames = Self.frames(
            "\router 0%\n\rinner 1/2" + up + "\router 50%\n\rinner 2/2" + up + "\router 100%")
        #expect(frames == [["outer 0%", "inner 1/2"], ["outer 50%", "inner 1/2"], ["outer 50%", "inner 2/2"]])
    }

    @Test("a first frame under plain lines: only the rows the cursor goes up over join it")
    func firstFrameUnderPlainLines() {
        let redraw = "\r\u{1B}[2K\u{1B}[1A\u{1B}[2K"
        let frames = Self.frames("plain\r\na 1%\r\nb 1%" + redraw + "a 2%\r\nb 2%")
        #expect(frames == [["a 1%", "b 1%"]])
    }

    @Test("a line drawn once, erased after \\r and written over: noted though it was not redrawn before")
    func erasedAfterReturn() {
        // cargo's status line replaced by an error line.
        #expect(Self.frames("ok\r\nBuilding 21/22\r\u{1B}[Kerror: mismatched types\r\n") == [["Building 21/22"]])
    }

    @Test("plain lines, and a screen whose overwrites nothing reads, note nothing")
    func plainOutput() {
        #expect(Self.frames("1\r\n2\r\n3\r\nfour\r\n").isEmpty)
        #expect(Self.frames("\rfirst 0%\rfirst 100%\rsecond 0%", notes: false).isEmpty)
    }

    @Test("at most the latest frames are kept between two takes")
    func bounded() {
        let text = (0...200).map { "\rstep \($0)" }.joined()
        let frames = Self.frames(text)
        #expect(frames.count == CommandScreen.maxOverwrittenFrames)
        #expect(frames.last == ["step 199"])
    }
}
