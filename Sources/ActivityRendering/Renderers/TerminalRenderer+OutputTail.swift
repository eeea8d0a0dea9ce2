import ActivityTerminal
import ActivityWire

/// The tail of each activity's output: the lines a command wrote while its activity ran (see
/// ``outputOwner``) and the `log` events of the activity, kept in ``OutputTails``.
///
/// - The live region shows the newest ``liveTailLines`` lines under the running activity,
///   dimmed, cut to the width.
/// - A failure is followed by its last ``OutputTails/linesKept`` lines, and each failure in the
///   closing summary by its last ``summaryTailLines``.
///
/// Nothing is shown twice: when an activity's lines are, in order, the last permanent lines the
/// display wrote (the command's output is right above), the live region and the failure leave
/// them out. Lines that went elsewhere (a file, a pipe of their own) are always shown.
extension TerminalRenderer {
    /// How many lines of output the live region shows under a running activity.
    static let liveTailLines = 2
    /// How many lines of output the summary shows under each failure.
    static let summaryTailLines = 3

    /// The gutter in front of a line of output shown with its activity.
    var tailGutter: String { style.unicode ? "│ " : "| " }

    /// Counts a permanent line written to the display; returns its number.
    @discardableResult
    func notePermanentLine() -> Int {
        permanentLines += 1
        return permanentLines
    }

    /// The activity that owns the command's output now, when it is known and running.
    func outputOwnerActivity(in store: ActivityStore) -> ActivityState? {
        guard let outputOwner, let activity = store[outputOwner], activity.isRunning else { return nil }
        return activity
    }

    /// Keeps a line of the command's output (raw bytes, without their newline) as the newest of
    /// its owner's tail. `shownAs` is the permanent line that showed it, if the display did.
    func keepOwnedOutput(_ bytes: some Collection<UInt8>, shownAs: Int?, in store: ActivityStore) {
        keepUnkeptRows()
        guard let owner = outputOwnerActivity(in: store) else { return }
        var clean = CommandOutput.lines(of: Array(bytes) + [0x0A]).first ?? []
        if clean.last == 0x0D { clean.removeLast() }
        // Bytes that are not text (a binary file written to a pipe or a file) are no line to
        // show; a line in another encoding (Latin-1's `ü`) is, with its odd bytes replaced.
        guard !Self.looksBinary(clean) else { return }
        let text = String(decoding: TerminalSanitizer.display(bytes: clean), as: UTF8.self)
        tails.append(text, to: owner.sequence, shownAs: shownAs, ellipsis: style.ellipsis)
    }

    /// Whether a line is bytes rather than text: it holds a NUL, or UTF-8 decoding replaces
    /// more than one byte in eight.
    package static func looksBinary(_ bytes: [UInt8]) -> Bool {
        guard !bytes.contains(0) else { return true }
        guard bytes.contains(where: { $0 >= 0x80 }) else { return false }
        let replaced = String(decoding: bytes, as: UTF8.self).unicodeScalars.lazy.filter { $0 == "\u{FFFD}" }.count
        return replaced * 8 > bytes.count
    }

    /// Keeps the lines of a stream that the display does not show (a file, a pipe), split into
    /// lines, for the owner's tail.
    func keepUnshownOutput(_ bytes: [UInt8], from stream: StandardStream, in store: ActivityStore) {
        guard outputOwner != nil else { return }
        var lines = tailSplitters[stream] ?? LineSplitter(maxLineBytes: 4096)
        // Only a tail's worth of the newest lines can stay: when this chunk ends with more, what
        // came before them (and the line the splitter held) would only be pushed out again, so
        // it is skipped unsplit. A command writing to a file at full speed pays for 20 lines a
        // read, not for every line.
        let start = Self.startOfNewestLines(bytes, count: OutputTails.linesKept)
        if start > 0 { lines = LineSplitter(maxLineBytes: 4096) }
        bytes[start...].withUnsafeBytes { raw in
            lines.feed(raw) { piece in
                guard piece.isComplete || piece.endsWithNewline else { return }
                keepOwnedOutput(piece.bytes, shownAs: nil, in: store)
            }
        }
        tailSplitters[stream] = lines
    }

    /// Where the last `count` whole lines of `bytes` begin, after the newline before them; 0
    /// when `bytes` holds no more than `count` newlines.
    package static func startOfNewestLines(_ bytes: [UInt8], count: Int) -> Int {
        var newlines = 0
        var index = bytes.count
        while index > 0 {
            index -= 1
            if bytes[index] == 0x0A {
                newlines += 1
                if newlines > count { return index + 1 }
            }
        }
        return 0
    }

    /// Whether a `log` event gets a line of its own: with `-q` only errors do (the others still
    /// go into the activity's tail, which a failure shows).
    func showsLog(_ log: ActivityEvent.Log) -> Bool {
        configuration.verbosity != .quiet || log.level == .error
    }

    /// Keeps a `log` event's message, sanitized, as the newest line of its activity's tail.
    func keepLog(_ message: String, of activity: ActivityState?, shownAs: Int?) {
        keepUnkeptRows()
        guard activity?.isRunning == true, let sequence = activity?.sequence else { return }
        tails.append(message, to: sequence, shownAs: shownAs, ellipsis: style.ellipsis)
    }

    /// The lines to show with a finished activity's failure: its tail, unless that is what the
    /// display wrote last.
    func failureTail(of activity: ActivityState) -> [StyledLine] {
        guard activity.status == .failure else { return [] }
        keepUnkeptRows()
        let lines = tails.lines(of: activity.sequence)
        guard !OutputTails.areLastShown(lines, lastShown: permanentLines) else { return [] }
        return lines.map { StyledLine("  " + tailGutter + $0.text, .tail) }
    }

    /// The newest lines of a running activity to show under it in the live region, at most
    /// `limit`; none when they are the last lines above the region.
    func liveTail(of sequence: Int, limit: Int) -> [String] {
        keepUnkeptRows()
        guard limit > 0, !tails.isEmpty else { return [] }
        let lines = tails.lines(of: sequence).suffix(min(limit, Self.liveTailLines))
        guard !OutputTails.areLastShown(Array(lines), lastShown: permanentLines) else { return [] }
        return lines.map(\.text)
    }

    /// A live tail line: indented under the activity's title, dimmed, cut to the width.
    func liveTailLine(_ text: String, indent: Int) -> StyledLine {
        StyledLine(Self.blank(indent + 2) + tailGutter + text, .tail)
    }
}
