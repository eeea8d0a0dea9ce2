/// Makes a stream the spec allows from the fuzzer's choices: `begin`, `progress`, `log` and `end`
/// events within Schemas/activity-event.v1.schema.json's limits, nested as deep as the choices go,
/// with timestamps that creep by microseconds, jump by years, stay put or go back, and now and then
/// a line of the tool's own text or an event that breaks a lifecycle rule (an end twice, a progress
/// for an id never begun), which consumers must take in their stride too.
struct StreamGenerator {
    /// One thing that happens, in order.
    enum Step {
        /// A line of the stream, without its LF.
        case line(String)
        /// Time passes on the display's clock (Unix seconds): a redraw is due.
        case tick(Double)
        /// The terminal changes size.
        case resize(columns: Int, rows: Int)
    }

    var choices: Choices
    private(set) var steps: [Step] = []
    /// Ids begun and not ended, the most recent last: a new activity most often nests in it.
    private var open: [String] = []
    private var ended: [String] = []
    private var nextID = 0
    /// The stream's time, which `ts` follows (or not).
    private(set) var time: Double = 1_764_417_600
    /// The titles used, for a history that knows some of them.
    private(set) var titles: [String] = []
    /// The stream's size so far: it stops at ``maxBytes``.
    private var bytes = 0

    /// The most events one input makes: enough for thousands of activities, few enough that an
    /// input runs through every consumer in well under a second.
    static let maxSteps = 4000
    /// The most bytes one input makes, so memory stays far below libFuzzer's limit under
    /// AddressSanitizer even with every line at the accepted maximum.
    static let maxBytes = 2_000_000

    init(_ choices: Choices) {
        self.choices = choices
    }

    mutating func generate() {
        if choices.bool() { time = choices.pick(Self.startTimes) }
        while steps.count < Self.maxSteps, bytes < Self.maxBytes, !choices.isExhausted {
            switch choices.below(16) {
            case 0...4: begin()
            case 5...8: progress()
            case 9: log()
            case 10...11: end()
            case 12: steps.append(.tick(time + choices.pick([0, 0.01, 0.05, 0.5, 1, 60, 1e6, -1])))
            case 13: text()
            case 14: flood()
            default:
                if choices.oneIn(4) {
                    steps.append(.resize(columns: choices.pick(Self.widths), rows: choices.pick(Self.heights)))
                } else {
                    brokenRule()
                }
            }
        }
    }

    static let startTimes: [Double] = [
        0, 1e-6, 86_400, 1_000_000_000, 1_764_417_600.123456, 4_102_444_800, 1e11, 1e13, 1e15, 9_007_199_254_740_000,
        WireValues.maxCount,
    ]
    static let widths = [1, 2, 3, 5, 10, 20, 40, 79, 80, 81, 120, 200, 500, 2000]
    static let heights = [1, 2, 3, 5, 10, 24, 50, 200]

    private mutating func emit(_ line: String) {
        bytes += line.utf8.count + 1
        steps.append(.line(line))
    }

    /// The next `ts` member (with its comma), or none: a consumer stamps the arrival time then.
    private mutating func timestamp() -> String {
        switch choices.below(12) {
        case 0: return ""
        case 1: time = 0
        case 2: time = WireValues.maxCount
        case 3: time = max(0, time - choices.pick([1e-6, 1, 3600, 1e9]))
        case 4: time = min(WireValues.maxCount, time + choices.pick([1e6, 3.15e7, 3.15e9, 1e12, 1e15]))
        case 5: time = min(WireValues.maxCount, time + 1e-6)
        case 6: break
        default: time = min(WireValues.maxCount, time + choices.unit() * choices.pick([0.01, 1, 100]))
        }
        return #","ts":"# + WireValues.number(time)
    }

    private mutating func newID() -> String {
        nextID += 1
        switch choices.below(8) {
        case 0: return String(repeating: "x", count: 100) + "." + String(nextID)
        case 1: return "3f9c2a71d04be815:@/+-." + String(nextID)
        default: return "a" + String(nextID)
        }
    }

    /// An open id, most often the newest; sometimes one that ended or never began.
    private mutating func someID() -> String {
        if choices.oneIn(16) || open.isEmpty {
            return ended.isEmpty || choices.bool() ? "never" + String(choices.below(4)) : choices.pick(ended)
        }
        return choices.bool() ? open[open.count - 1] : choices.pick(open)
    }

    private mutating func totalMember(_ name: String = "total") -> String {
        switch choices.below(4) {
        case 0: return ""
        case 1: return #",""# + name + #"":null"#
        default: return #",""# + name + #"":"# + WireValues.count(&choices)
        }
    }

    private mutating func optionalText(_ name: String) -> String {
        choices.bool() ? "" : #",""# + name + #"":"# + WireValues.text(&choices)
    }

    private mutating func begin() {
        let id = newID()
        var line = #"{"v":1,"type":"begin""# + timestamp() + #","id":""# + id + #"""#
        let title = WireValues.text(&choices)
        titles.append(title)
        line += #","title":"# + title
        if !open.isEmpty, !choices.oneIn(4) {
            // Mostly under the newest, so chains grow hundreds deep.
            line += #","parent":""# + (choices.oneIn(3) ? choices.pick(open) : open[open.count - 1]) + #"""#
        }
        line += totalMember()
        if choices.bool() { line += #","completed":"# + WireValues.count(&choices) }
        if choices.bool() {
            line += #","unit":"# + (choices.bool() ? #""bytes""# : WireValues.text(&choices, maxPieces: 2))
        }
        line += optionalText("message")
        if choices.bool() { line += #","cancellable":"# + (choices.bool() ? "true" : "false") }
        if choices.bool() { line += #","blocking":""# + choices.pick(["none", "block", "dim"]) + #"""# }
        if choices.oneIn(3) { line += #","attrs":"# + attributes() }
        emit(line + "}")
        open.append(id)
    }

    /// An `attrs` object: up to 32 keys of up to 64 bytes, among them the ones consumers read.
    private mutating func attributes() -> String {
        var members: [String] = []
        for index in 0..<choices.below(33) {
            let key: String
            switch choices.below(6) {
            case 0: key = "x-activity-frame"
            case 1: key = "k\\uDADA" + String(index)
            case 2: key = String(repeating: "k", count: 60) + String(index % 10)
            default: key = "key" + String(index)
            }
            let value: String
            switch choices.below(4) {
            case 0: value = WireValues.count(&choices)
            case 1: value = choices.bool() ? "true" : "false"
            default: value = WireValues.text(&choices, maxPieces: 3)
            }
            members.append("\"" + key + "\":" + value)
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    private mutating func progress() {
        var line = #"{"v":1,"type":"progress""# + timestamp() + #","id":""# + someID() + #"""#
        if !choices.oneIn(4) { line += #","completed":"# + WireValues.count(&choices) }
        if choices.oneIn(3) { line += totalMember() }
        if choices.oneIn(3) { line += #","message":"# + (choices.oneIn(4) ? #""""# : WireValues.text(&choices)) }
        if choices.oneIn(8) {
            let title = WireValues.text(&choices)
            titles.append(title)
            line += #","title":"# + title
        }
        emit(line + "}")
    }

    private mutating func log() {
        var line = #"{"v":1,"type":"log""# + timestamp() + #","message":"# + WireValues.text(&choices, maxPieces: 10)
        if choices.bool() { line += #","id":""# + someID() + #"""# }
        if choices.bool() { line += #","level":""# + choices.pick(["debug", "info", "warning", "error"]) + #"""# }
        emit(line + "}")
    }

    private mutating func end() {
        guard !open.isEmpty else { return begin() }
        // The newest most often; an ancestor now and then, which abandons what is under it.
        let index = choices.oneIn(4) ? choices.below(open.count) : open.count - 1
        let id = open.remove(at: index)
        ended.append(id)
        var line = #"{"v":1,"type":"end""# + timestamp() + #","id":""# + id + #"""#
        if choices.bool() {
            line += #","status":""# + choices.pick(["success", "failure", "cancelled", "skipped"]) + #"""#
        }
        line += optionalText("message")
        if choices.oneIn(3) { line += optionalText("error") }
        if choices.oneIn(3) { line += #","completed":"# + WireValues.count(&choices) }
        if choices.oneIn(4) { line += totalMember() }
        emit(line + "}")
    }

    /// A line of the tool's own output, passed through: its own JSON, or raw text with controls.
    private mutating func text() {
        if choices.oneIn(4) { return emit(#"{"type":"begin","msg":"# + WireValues.text(&choices) + "}") }
        var line = ""
        for _ in 0..<choices.below(8) {
            line += choices.bool() ? choices.pick(Self.rawControls) : choices.pick(WireValues.textPieces)
        }
        emit(line.replacing("\n", with: " "))
    }

    static let rawControls = [
        "\u{1B}[2J", "\u{1B}]0;title\u{07}", "\u{9B}1A", "\r", "\u{1B}[?1049h", "\u{7F}", "\u{0}",
    ]

    /// Many activities at once, one level or a chain: open at once, or begun and ended in a row.
    private mutating func flood() {
        let count = choices.pick([10, 100, 1000, 3000])
        let chain = choices.bool()
        let closes = choices.bool()
        let title = WireValues.text(&choices, maxPieces: 2)
        var parent = open.last
        for _ in 0..<count where steps.count < Self.maxSteps {
            let id = newID()
            var line = #"{"v":1,"type":"begin","id":""# + id + #"","title":"# + title
            if let parent { line += #","parent":""# + parent + #"""# }
            emit(line + #","total":"# + WireValues.count(&choices) + "}")
            if chain { parent = id }
            if closes && !chain {
                emit(#"{"v":1,"type":"end","id":""# + id + #""}"#)
            } else {
                open.append(id)
            }
        }
    }

    /// An event that breaks §5's rules: a second begin, an end of an ended id, a progress after it.
    private mutating func brokenRule() {
        let id = ended.isEmpty ? someID() : choices.pick(ended)
        switch choices.below(3) {
        case 0: emit(#"{"v":1,"type":"begin","id":""# + id + #"","title":"again"}"#)
        case 1: emit(#"{"v":1,"type":"end","id":""# + id + #"","status":"failure"}"#)
        default: emit(#"{"v":1,"type":"progress","id":""# + id + #"","completed":1}"#)
        }
    }
}
