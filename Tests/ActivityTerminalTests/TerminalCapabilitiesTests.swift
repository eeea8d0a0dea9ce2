import Testing

@testable import ActivityTerminal

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Terminal capabilities")
struct TerminalCapabilitiesTests {
    @Test("Unicode follows the first set locale variable")
    func unicode() {
        #expect(TerminalCapabilities.detect(environment: ["LANG": "en_US.UTF-8"]).unicode)
        #expect(TerminalCapabilities.detect(environment: ["LC_CTYPE": "C.utf8"]).unicode)
        #expect(!TerminalCapabilities.detect(environment: ["LANG": "C"]).unicode)
        #expect(!TerminalCapabilities.detect(environment: ["LC_ALL": "C", "LANG": "en_US.UTF-8"]).unicode)
        #expect(TerminalCapabilities.detect(environment: ["LC_ALL": "", "LANG": "en_US.UTF-8"]).unicode)
        #expect(!TerminalCapabilities.detect(environment: [:]).unicode)
    }

    @Test(
        "colour: NO_COLOR, CLICOLOR=0 and non-terminals turn it off, CLICOLOR_FORCE back on, never over NO_COLOR",
        arguments: [
            ([:], true, true),
            (["NO_COLOR": "1"], true, false),
            (["NO_COLOR": ""], true, true),
            (["CLICOLOR": "0"], true, false),
            (["CLICOLOR": "0", "CLICOLOR_FORCE": "1"], true, true),
            (["CLICOLOR_FORCE": "0", "CLICOLOR": "0"], true, false),
            (["NO_COLOR": "1", "CLICOLOR_FORCE": "1"], true, false),
            ([:], false, false),
            (["CLICOLOR_FORCE": "1"], false, true),
            (["CLICOLOR_FORCE": ""], false, false),
        ] as [([String: String], Bool, Bool)]
    )
    func color(environment: [String: String], isTerminal: Bool, color: Bool) {
        #expect(TerminalCapabilities.detect(environment: environment, isTerminal: isTerminal).color == color)
    }

    @Test("TERM=dumb cannot move the cursor")
    func dumb() {
        #expect(!TerminalCapabilities.detect(environment: ["TERM": "dumb"]).cursorMovement)
        #expect(TerminalCapabilities.detect(environment: ["TERM": "xterm-256color"]).cursorMovement)
    }

    @Test("the size of a non-terminal comes from COLUMNS and LINES, else the fallback")
    func size() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { fds.forEach { close($0) } }
        #expect(!TerminalDevice.isTerminal(fds[0]))
        let sized = TerminalDevice.size(of: fds[0], environment: ["COLUMNS": "132", "LINES": "50"])
        #expect(sized.columns == 132 && sized.rows == 50)
        let fallback = TerminalDevice.size(of: fds[0], environment: ["COLUMNS": "x"], fallback: (40, 10))
        #expect(fallback.columns == 40 && fallback.rows == 10)
    }
}
