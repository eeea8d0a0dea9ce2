import ActivityTerminal
import ActivityWire

/// The last lines of output of each running activity, in bounded memory: shown under the
/// activity in the live region, and with its failure.
///
/// Lines are kept by the activity's ``ActivityState/sequence`` (a handle is reused once its
/// activity is evicted; a sequence never is), sanitized and cut to ``maxLineWidth`` columns.
/// Each activity keeps its last ``linesKept`` lines; at most ``activitiesKept`` activities keep
/// lines at once, the one written to longest ago giving way to a new one.
struct OutputTails {
    /// One kept line, and where it stands among the permanent lines the display wrote.
    struct Line {
        var text: String
        /// The number of the permanent line that showed it, or `nil` when the display did not
        /// (it went to a file or a pipe of its own).
        var shownAs: Int?
    }

    /// One activity's ring of lines.
    struct Tail {
        fileprivate(set) var lines: [Line] = []
        /// Where the oldest line is, once the ring is full.
        fileprivate var start = 0
        /// When it was last written to, in ``OutputTails/clock`` ticks.
        fileprivate var lastWrite = 0

        /// The lines, oldest first.
        var ordered: [Line] { Array(lines[start...] + lines[..<start]) }

        fileprivate mutating func append(_ line: Line) {
            if lines.count < OutputTails.linesKept {
                lines.append(line)
            } else {
                lines[start] = line
                start = (start + 1) % lines.count
            }
        }
    }

    /// How many lines each activity keeps: what its failure shows.
    static let linesKept = 20
    /// How many activities keep lines at once.
    static let activitiesKept = 64
    /// The widest a kept line is, in columns: wider lines are cut with an ellipsis.
    static let maxLineWidth = 300

    private var tails: [Int: Tail] = [:]
    private var clock = 0

    var isEmpty: Bool { tails.isEmpty }

    /// Keeps `text` (sanitized already) as the newest line of the activity `sequence`.
    mutating func append(_ text: String, to sequence: Int, shownAs: Int?, ellipsis: String) {
        clock += 1
        let cut =
            text.utf8.count > Self.maxLineWidth
            ? DisplayWidth.truncate(text, to: Self.maxLineWidth, ellipsis: ellipsis) : text
        if tails.count >= Self.activitiesKept, tails[sequence] == nil,
            let oldest = tails.min(by: { $0.value.lastWrite < $1.value.lastWrite })?.key
        {
            tails[oldest] = nil
        }
        // One lookup: the tail is changed where it is kept.
        Self.write(Line(text: cut, shownAs: shownAs), at: clock, to: &tails[sequence, default: Tail()])
    }

    private static func write(_ line: Line, at clock: Int, to tail: inout Tail) {
        tail.append(line)
        tail.lastWrite = clock
    }

    /// The lines of the activity `sequence`, oldest first.
    func lines(of sequence: Int) -> [Line] { tails[sequence]?.ordered ?? [] }

    /// The newest `count` lines of the activity `sequence`, oldest first.
    func last(_ count: Int, of sequence: Int) -> [String] {
        guard let tail = tails[sequence], !tail.lines.isEmpty else { return [] }
        return tail.ordered.suffix(count).map(\.text)
    }

    /// Forgets the lines of the activity `sequence` (it ended).
    mutating func remove(_ sequence: Int) {
        tails[sequence] = nil
    }

    /// Whether `lines` are, in order, the last permanent lines written, up to number `lastShown`:
    /// showing them again with the failure would only repeat what is on the screen right above.
    static func areLastShown(_ lines: [Line], lastShown: Int) -> Bool {
        guard !lines.isEmpty else { return true }
        for (offset, line) in lines.reversed().enumerated() where line.shownAs != lastShown - offset {
            return false
        }
        return true
    }
}
