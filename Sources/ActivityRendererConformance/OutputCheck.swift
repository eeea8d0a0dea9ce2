/// What a renderer's output must not hold once it has finished: the producer's control sequences
/// as they came, and terminal modes or styles left set.
struct OutputCheck {
    let scenario: RendererConformance.Scenario
    let isTerminal: Bool

    /// A private mode a renderer may set (`ESC [ ? N h` or `l`), and the final byte that sets it.
    struct Mode {
        let name: String
        let number: Int
        let setBy: UInt8
    }

    static let modes: [Mode] = [
        Mode(name: "the cursor hidden", number: 25, setBy: 0x6C),
        Mode(name: "the alternate screen", number: 1049, setBy: 0x68),
        Mode(name: "autowrap off", number: 7, setBy: 0x6C),
        Mode(name: "synchronized output", number: 2026, setBy: 0x68),
        Mode(name: "bracketed paste", number: 2004, setBy: 0x68),
        Mode(name: "mouse reporting", number: 1000, setBy: 0x68),
    ]

    func problems(in output: [UInt8]) -> [RendererConformanceProblem] {
        // Off a terminal nothing needs restoring, and passed-through output may hold any bytes.
        unsanitized(in: output) + (isTerminal ? notRestored(in: output) : [])
    }

    private func unsanitized(in output: [UInt8]) -> [RendererConformanceProblem] {
        var problems: [RendererConformanceProblem] = []
        // Passed-through output is written as it came to a file or a pipe, by design.
        let places = isTerminal ? ["event", "passthrough"] : ["event"]
        for hostile in RendererConformance.hostile where isTerminal || !hostile.c1 {
            for place in places {
                let bytes = Array(hostile.text(in: place).utf8)
                guard output.firstRange(of: bytes) != nil else { continue }
                let source = place == "event" ? "the producer's text" : "passed-through output"
                problems.append(
                    .init(
                        scenario: scenario, kind: .unsanitizedText,
                        message: "\(source) \(Self.visible(bytes)) reached the output as it came"))
            }
        }
        return problems
    }

    private func notRestored(in output: [UInt8]) -> [RendererConformanceProblem] {
        let state = TerminalModes(reading: output)
        var problems: [RendererConformanceProblem] = []
        for mode in Self.modes where state.set.contains(mode.number) {
            let sequence = "\u{1B}[?\(mode.number)" + String(UnicodeScalar(mode.setBy))
            problems.append(
                .init(
                    scenario: scenario, kind: .notRestored,
                    message: "finished with \(mode.name) (\(Self.visible(Array(sequence.utf8))))"))
        }
        if let style = state.style {
            problems.append(
                .init(
                    scenario: scenario, kind: .notRestored,
                    message: "finished with a colour or style set (\(Self.visible([0x1B, 0x5B] + style + [0x6D])))"
                        + " and no reset after it"))
        }
        if state.taskbarShown {
            problems.append(
                .init(
                    scenario: scenario, kind: .notRestored,
                    message: "finished with the taskbar's progress shown (OSC 9;4)"))
        }
        return problems
    }

    /// Bytes as a person can read them in a test's failure: controls as `\u{1B}`.
    static func visible(_ bytes: [UInt8]) -> String {
        var text = "\""
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
