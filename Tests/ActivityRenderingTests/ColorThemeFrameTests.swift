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
