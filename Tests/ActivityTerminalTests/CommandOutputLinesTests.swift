import ActivityTerminal
import Testing

/// ``CommandOutput/lines(of:)``: the texts of final rows, and of a command's output kept as it
/// came (a pipe's lines, for a tail), whatever sequences they hold.
@Suite("CommandOutput: the texts of lines")
struct CommandOutputLinesTests {
    static func texts(_ text: String) -> [String] {
        CommandOutput.lines(of: Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("final rows: SGR sequences dropped, one text per line feed, the \\r before it too")
    func finalRows() {
        #expect(Self.texts("\u{1B}[1;31mred\u{1B}[0m plain\r\n\r\nlast\r\n") == ["red plain", "", "last"])
    }

    @Test(
        "a line feed ends a line inside any sequence left open: one text per line feed, whatever came before it",
        arguments: ["saved\u{1B}7\n", "saved\u{1B}\n", "saved\u{1B}[\n", "saved\u{1B}[12;\n", "saved\u{1B}]0;title\n"])
    func openSequence(_ line: String) {
        #expect(Self.texts(line + "next\n") == ["saved", "next"])
    }

    @Test("other escapes, titles and charset switches are not text")
    func otherSequences() {
        #expect(
            Self.texts("\u{1B}7a\u{1B}8b\u{1B}(Bc\u{1B}]2;title\u{07}d\u{1B}]2;t\u{1B}\\e\u{1B}[?25lf\n") == ["abcdef"])
    }
}
