import ActivityWire
import Testing

@testable import ActivityTerminal

@Suite("Terminal progress integration (OSC 9;4)")
struct TaskbarProgressTests {
    @Test("the sequences, byte for byte")
    func sequences() {
        #expect(TaskbarProgress.normal(percent: 45).sequence == Array("\u{1B}]9;4;1;45\u{1B}\\".utf8))
        #expect(TaskbarProgress.error(percent: 7).sequence == Array("\u{1B}]9;4;2;7\u{1B}\\".utf8))
        #expect(TaskbarProgress.indeterminate.sequence == Array("\u{1B}]9;4;3;0\u{1B}\\".utf8))
        #expect(TaskbarProgress.cleared.sequence == Array("\u{1B}]9;4;0;0\u{1B}\\".utf8))
        #expect(TaskbarProgress.normal(percent: 140).sequence == Array("\u{1B}]9;4;1;100\u{1B}\\".utf8))
    }

    @Test(
        "sent to the terminals known to show it",
        arguments: [
            ["WT_SESSION": "0f1c2d3e"], ["ConEmuANSI": "ON"], ["TERM_PROGRAM": "WezTerm"],
            ["TERM_PROGRAM": "ghostty", "TERM_PROGRAM_VERSION": "1.2.0"],
            ["TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.6.6"],
            ["TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.10.1"], ["VTE_VERSION": "8002"],
        ])
    func supported(environment: [String: String]) {
        #expect(TaskbarProgress.isSupported(environment: environment))
    }

    @Test(
        "never to others, nor to a terminal that shows OSC 9 as a notification (iTerm2 before 3.6.6)",
        arguments: [
            [:], ["TERM": "xterm-256color"], ["TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.6.5"],
            ["TERM_PROGRAM": "iTerm.app"], ["TERM_PROGRAM": "ghostty", "TERM_PROGRAM_VERSION": "1.1.3"],
            ["TERM_PROGRAM": "Apple_Terminal"], ["ConEmuANSI": "OFF"], ["VTE_VERSION": "7600"], ["WT_SESSION": ""],
        ])
    func unsupported(environment: [String: String]) {
        #expect(!TaskbarProgress.isSupported(environment: environment))
    }

    @Test("one rounding rule for every percentage: down")
    func rounding() {
        #expect(DisplayPercent.value(0.014) == 1)
        #expect(DisplayPercent.value(0.996) == 99)
        #expect(DisplayPercent.value(1.5) == 100)
        #expect(DisplayPercent.value(-1) == 0)
        #expect(DisplayPercent.value(.nan) == 0)
    }
}
