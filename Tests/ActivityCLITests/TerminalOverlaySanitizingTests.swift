import ActivityOverlay
import ActivityRendering
import ActivityWire
import TestSupport
import Testing

@testable import ActivityCLI

/// In the presenter's serialized suite: the presenters share the process's signal handlers.
extension TerminalOverlayPresenterTests {
    @Test("passed-through lines, problems and notices are sanitized: the overlay always draws on a terminal")
    func sanitizedText() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let presenter = try TerminalOverlayPresenter(
            environment: Self.environment, outputFD: pty.terminal, inputFD: nil, configuration: Self.fast
        ) { _ in }
        defer { presenter.finish() }
        let store = ActivityStore()
        presenter.passthrough(
            Array("tool\u{1B}]0;PWNED\u{07}\u{1B}[2J\u{9B}31m \u{202E}says\n".utf8), to: .stdout, in: store)
        presenter.report(Diagnostic(line: 3, code: .invalidJSON, message: "bad\u{1B}[5A\u{7F} line"), in: store)
        presenter.notice("plugin \u{1B}[2Jnotify exited", in: store)
        try pty.wait { pty.text.contains("notify exited") }
        #expect(pty.text.contains("tool says"))
        #expect(pty.text.contains("activity: line 3: invalid-json: bad line"))
        #expect(pty.text.contains("activity: warning: plugin notify exited"))
        for forbidden in ["PWNED", "\u{1B}", "\u{07}", "\u{9B}", "\u{7F}", "\u{202E}"] {
            #expect(!pty.text.contains(forbidden), "\(forbidden.debugDescription) in \(pty.text.debugDescription)")
        }
    }

    @Test("CLICOLOR_FORCE brings colour back over CLICOLOR=0, as in the other displays")
    func colorForced() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let environment = Self.environment.merging(["CLICOLOR": "0", "CLICOLOR_FORCE": "1"]) { $1 }
        let presenter = try TerminalOverlayPresenter(
            environment: environment, outputFD: pty.terminal, inputFD: nil, configuration: Self.fast
        ) { _ in }
        defer { presenter.finish() }
        presenter.handle(Self.begin("a", "Signing in"))
        try pty.wait { pty.text.contains("Esc to cancel") }
        #expect(pty.text.contains("48;5;236m"))  // dimmed with a grey background: colour is on
    }
}
