import ActivityWire
import Foundation
import Testing

@testable import ActivityRendering

/// The colours of every part of the display, byte for byte: the default theme must give the
/// bytes it always gave, and a theme of the user's must change only the SGR sequences.
@Suite("Colour themes in the terminal display")
struct ColorThemeFrameTests {
    /// A run that shows every coloured part: header, bars, counts, rates, messages, history
    /// estimates, output tails, log levels, warnings, every outcome and the full summary.
    static func transcript(style: TerminalStyle) -> String {
        var configuration = TerminalRenderer.Configuration(
            mode: .tty, style: style, size: TerminalSize(columns: 90, rows: 12), displayIsTerminal: true,
            startTime: 0)
        var history = ActivityHistory()
        history.record(path: ["Fetch"], duration: 10, completed: 0, total: nil, endedAt: 0)
        history.record(path: ["Test"], duration: 1, completed: 0, total: nil, endedAt: 0)
        configuration.history = history
        let h = TerminalHarness(configuration: configuration)
        h.send(
            E.begin("b", "Build", total: 4, at: 0),
            E.begin("c", "Compile", parent: "b", total: 2048, unit: "bytes", message: "main.swift", at: 0),
            E.begin("f", "Fetch", at: 0), E.begin("t", "Test", at: 0), E.begin("s", "Sign", at: 0),
            E.progress("b", 1, at: 1), E.progress("c", 1024, at: 1), E.progress("nobody", 1, at: 1))
        h.renderer.outputOwner = E.id("c")
        h.passthrough("cc -c main.c")
        h.send(
            E.log("plain news", at: 1), E.log("details", id: "c", level: .debug, at: 1),
            E.log("disk almost full", id: "f", level: .warning, at: 1),
            E.log("bad checksum", id: "f", level: .error, at: 1))
        h.renderer.notice("history file unreadable", in: h.store)
        h.frame(at: 2, "running")
        h.send(
            E.end(
                "c", .failure, error: "exit status 1 after a long and winding compilation that went nowhere at all",
                at: 3), E.end("f", .cancelled, at: 3),
            E.end("s", .skipped, message: "not needed", at: 3), E.end("t", at: 6))
        h.finish(at: 7)
        return String(decoding: h.buffer.bytes, as: UTF8.self)
            .replacingOccurrences(of: "\u{1B}", with: "\\e")
            .replacingOccurrences(of: "\r", with: "\\r")
    }

    @Test("the default colours give the same bytes as always")
    func defaultBytes() {
        Golden.check(Self.transcript(style: TerminalStyle(unicode: true, color: true)), named: "colors-default.txt")
    }
}

extension ColorThemeFrameTests {
    @Test("a theme of the user's changes the colour sequences and nothing else")
    func customTheme() throws {
        let (theme, problems) = ColorTheme.parse(
            "bar=34:bar-track=90:spinner=1;35:title=4:detail=:message=3:failure=1;91:log-error=7;31:tail=90:usual=36")
        #expect(problems.isEmpty)
        let custom = Self.transcript(style: TerminalStyle(unicode: true, color: true, colors: theme))
        Golden.check(custom, named: "colors-custom.txt")
        #expect(custom.contains("\\e[34m███"))
        #expect(custom.contains("\\e[90m━"))
        #expect(custom.contains("\\e[7;31merror: \\e[0m"))
        #expect(custom.contains("\\e[36mETA 8s · usually 10.0s\\e[0m"))
        #expect(custom.contains("\\e[KBuild › Compile: \\e[2mdetails\\e[0m"), "detail has no colour, log-debug its own")
        // Without the sequences, the text is the same as with the default theme.
        func text(_ transcript: String) -> String {
            transcript.replacingOccurrences(of: #"\\e\[[0-9;]*m"#, with: "", options: .regularExpression)
        }
        #expect(text(custom) == text(Self.transcript(style: TerminalStyle(unicode: true, color: true))))
    }

    @Test("without colour a theme changes nothing")
    func themeWithoutColour() {
        let theme = ColorTheme.parse("bar=34:detail=1").theme
        #expect(
            Self.transcript(style: TerminalStyle(unicode: true, color: false, colors: theme))
                == Self.transcript(style: TerminalStyle(unicode: true, color: false)))
    }

    @Test("a session shows ACTIVITY_COLORS's colours, and one warning above the display for its bad entries")
    func session() throws {
        try withTemporaryDirectory { directory in
            let display = DisplayFile(directory: directory)
            let session = try RenderSession(
                options: RenderOptions(
                    mode: .tty, displayFileDescriptor: display.descriptor,
                    environment: [
                        "TERM": "xterm", "LANG": "C.UTF-8", "CLICOLOR_FORCE": "1",
                        "ACTIVITY_COLORS": "success=34:baz=1:bar=9;x:bar=1;34",
                    ]))
            session.handle(E.begin("a", "Fetch", total: 2, at: 100))
            session.handle(E.end("a", at: 101))
            session.finish()
            let text = display.text
            #expect(text.contains("\u{1B}[34m✔\u{1B}[0m"))
            #expect(text.components(separatedBy: "ACTIVITY_COLORS").count == 2)
            #expect(
                text.contains(
                    "\u{1B}[35mwarning: ACTIVITY_COLORS: unknown role 'baz', 'bar=9;x': not SGR parameters"))
        }
    }
}

extension ColorThemeFrameTests {
    @Test("the cancel hint: Esc in the key role, the rest in the hint role")
    func cancelHint() {
        func frame(_ colors: ColorTheme) -> String {
            let h = TerminalHarness(
                configuration: TerminalRenderer.Configuration(
                    mode: .tty, style: TerminalStyle(unicode: true, color: true, colors: colors),
                    size: TerminalSize(columns: 60, rows: 8), displayIsTerminal: true, startTime: 0))
            h.renderer.cancelKey.isOffered = true
            h.send(.begin(.init(id: E.id("w"), title: "Deploy", cancellable: true, timestamp: 0)))
            h.frame(at: 0.1, "offered")
            return h.buffer.text
        }
        #expect(frame(ColorTheme()).contains("\u{1B}[1mEsc\u{1B}[0m\u{1B}[2m cancels Deploy\u{1B}[0m"))
        #expect(frame(ColorTheme.parse("key=4:hint=").theme).contains("\u{1B}[4mEsc\u{1B}[0m cancels Deploy\r"))
    }
}
