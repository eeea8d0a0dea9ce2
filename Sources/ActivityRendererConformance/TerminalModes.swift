/// What a terminal would have set after reading some output: private modes, the last style, the
/// taskbar's progress. One pass over the bytes, reading only the sequences it needs.
struct TerminalModes {
    /// The private modes (`ESC [ ? N h|l`) whose last sequence set them, by the sense of
    /// ``OutputCheck/modes``.
    private(set) var set: Set<Int> = []
    /// The parameters of the last SGR sequence when it was not a reset.
    private(set) var style: [UInt8]?
    /// Whether the last OSC 9;4 showed a progress (a state other than 0).
    private(set) var taskbarShown = false

    init(reading output: [UInt8]) {
        let senses = Dictionary(uniqueKeysWithValues: OutputCheck.modes.map { ($0.number, $0.setBy) })
        var index = 0
        while index < output.count {
            guard output[index] == 0x1B, index + 1 < output.count else {
                index += 1
                continue
            }
            switch output[index + 1] {
            case 0x5B:  // CSI: parameters, intermediates, a final byte.
                var end = index + 2
                while end < output.count, (0x20...0x3F).contains(output[end]) { end += 1 }
                guard end < output.count else { return }
                let parameters = Array(output[(index + 2)..<end])
                note(csi: parameters, final: output[end], senses: senses)
                index = end + 1
            case 0x5D:  // OSC: up to BEL or ESC \.
                var end = index + 2
                while end < output.count, output[end] != 0x07, output[end] != 0x1B { end += 1 }
                let content = output[(index + 2)..<end]
                if content.starts(with: Array("9;4;".utf8)) {
                    taskbarShown = content.dropFirst(4).first != 0x30
                }
                index = end + 1
            default:
                index += 2
            }
        }
    }

    private mutating func note(csi parameters: [UInt8], final: UInt8, senses: [Int: UInt8]) {
        if final == 0x6D {
            style = parameters.isEmpty || parameters == [0x30] ? nil : parameters
            return
        }
        guard final == 0x68 || final == 0x6C, parameters.first == 0x3F else { return }
        for number in parameters.dropFirst().split(separator: 0x3B) {
            guard let mode = Int(String(decoding: number, as: UTF8.self)), let setBy = senses[mode] else { continue }
            if final == setBy { set.insert(mode) } else { set.remove(mode) }
        }
    }
}
