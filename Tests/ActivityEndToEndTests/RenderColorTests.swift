import Foundation
import TestSupport
import Testing

@Suite("activity render: ACTIVITY_COLORS")
struct RenderColorTests {
    static let events = Data(
        """
        {"v":1,"type":"begin","id":"a","title":"Fetch","total":4}
        {"v":1,"type":"progress","id":"a","completed":2}
        {"v":1,"type":"end","id":"a","status":"success"}
        {"v":1,"type":"begin","id":"b","title":"Link"}
        {"v":1,"type":"end","id":"b","status":"failure","error":"exit status 1"}

        """.utf8)

    func render(_ environment: [String: String]) throws -> CommandResult {
        try CommandRunner.activity(
            ["render", "--mode", "tty"], input: Self.events,
            environment: ["TERM": "xterm", "LANG": "C.UTF-8"].merging(environment) { $1 })
    }

    @Test("CLICOLOR_FORCE to a pipe: the chosen SGR sequences, the others as default")
    func chosenColours() throws {
        let result = try render(["CLICOLOR_FORCE": "1", "ACTIVITY_COLORS": "success=1;34:failure=38;5;208:detail="])
        #expect(result.status == 0)
        #expect(result.standardError.contains("\u{1B}[1;34m✔\u{1B}[0m Fetch"))
        #expect(result.standardError.contains("\u{1B}[38;5;208m✖\u{1B}[0m"))
        #expect(result.standardError.contains("\u{1B}[38;5;208m  exit status 1\u{1B}[0m"))
        #expect(!result.standardError.contains("\u{1B}[2m"), "detail is the only dim role shown here")
        #expect(result.standardError.contains("\u{1B}[1mLink\u{1B}[0m"), "title keeps its default")
        #expect(!result.standardError.contains("ACTIVITY_COLORS"))
    }

    @Test("NO_COLOR wins over ACTIVITY_COLORS and CLICOLOR_FORCE: no colour at all")
    func noColour() throws {
        let result = try render(["NO_COLOR": "1", "CLICOLOR_FORCE": "1", "ACTIVITY_COLORS": "success=1;34:nope"])
        #expect(result.status == 0)
        #expect(result.standardError.contains("✔ Fetch"))
        #expect(!result.standardError.contains(#/\x1B\[[0-9;]*m/#))
        #expect(!result.standardError.contains("ACTIVITY_COLORS"), "colours are off: the variable is not read")
    }

    @Test("bad entries: one warning naming them, the rest applied, never an abort")
    func badEntries() throws {
        let result = try render([
            "CLICOLOR_FORCE": "1", "ACTIVITY_COLORS": "success=1;34:baz=1:failure=31m:failure=\u{1B}[5m",
        ])
        #expect(result.status == 0)
        let warnings = result.standardError.components(separatedBy: "ACTIVITY_COLORS").count - 1
        #expect(warnings == 1)
        #expect(result.standardError.contains("warning: ACTIVITY_COLORS: unknown role 'baz', 'failure=31m': not SGR"))
        #expect(result.standardError.contains("(roles: spinner, title, bar, bar-track,"))
        #expect(result.standardError.contains("\u{1B}[1;34m✔\u{1B}[0m Fetch"))
        #expect(result.standardError.contains("\u{1B}[31m✖\u{1B}[0m"), "failure keeps its default")
        #expect(!result.standardError.contains("\u{1B}[5m"))
    }
}
