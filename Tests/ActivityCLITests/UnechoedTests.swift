import ActivityAdapters
import Testing

@testable import ActivityCLI

@Suite("The lines an external adapter has not echoed")
struct UnechoedTests {
    func send(_ text: String, to kept: inout Unechoed) {
        Array(text.utf8).withUnsafeBytes { kept.sent($0, .standardError) }
    }

    func text(_ outputs: [AdapterOutput]) -> String {
        outputs.map { output -> String in
            if case .passthrough(let bytes, _) = output { return String(decoding: bytes, as: UTF8.self) }
            return ""
        }.joined()
    }

    @Test("an echoed line settles it and every line before it; later lines stay kept")
    func echoSettles() {
        var kept = Unechoed()
        send("10%\nstep one\n20%\nstep two\n", to: &kept)
        kept.echoed(Array("step one\n".utf8))
        #expect(text(kept.takeAll()) == "20%\nstep two\n")
    }

    @Test("a blank line the adapter writes of its own settles nothing: no line before a later blank one is lost")
    func blankLines() {
        var kept = Unechoed()
        send("compiling a\n\nlinking\n\n", to: &kept)
        kept.echoed(Array("\n".utf8))
        #expect(text(kept.takeAll()) == "compiling a\n\nlinking\n\n")
    }
}
