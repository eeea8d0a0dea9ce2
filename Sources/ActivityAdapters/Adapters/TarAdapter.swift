/// GNU tar's checkpoints.
///
/// `--checkpoint=N --checkpoint-action=echo`: `tar: Write checkpoint 500` counts records (10240
/// bytes with the default blocking factor). Read by their shape, so translated words
/// (`tar: Schreib-Kontrollpunkt 500`) are read too.
///
/// `--checkpoint-action=dot` (or `.`): a `.` for each checkpoint, on one line that ends only
/// with tar's next output. The dots are counted as they come; with the command line's
/// `--checkpoint=N` they are N records each, without it they count checkpoints. The title comes
/// from the command's mode (`-c` writes, `-x` and `-t` read). A line of other text after the dots
/// (`--totals`' `Total bytes written: …`) passes through whole, dots and all.
///
/// Neither has a total (`--totals` prints the size only at the end). tar prints no completion,
/// so the end of its output completes the activity unless it printed `tar: Error is not
/// recoverable` or `tar: Exiting with failure status`, or its exit status (a tar killed by
/// Ctrl-C) says otherwise.
struct TarAdapter: ToolAdapter {
    private static let key = "archive"
    private var seen = false
    private var failed = false
    /// Records per checkpoint (`--checkpoint=N`), when the command line is known.
    private var interval: Double?
    private var dotTitle = "Archiving"
    /// The dots of the lines that have ended.
    private var dotsBefore = 0.0
    /// An echo line was seen: its record numbers are exact, and the dots beside it add nothing.
    private var echoSeen = false

    init(command: [String] = []) {
        for argument in command.dropFirst() {
            if argument == "--checkpoint" { interval = 10 }
            if argument.hasPrefix("--checkpoint=") { interval = NumberText.integer(argument.dropFirst(13)[...]) }
        }
        let mode = command.dropFirst().first { !$0.hasPrefix("--") }.map { $0.drop { $0 == "-" } } ?? ""
        let long = Set(command.dropFirst().filter { $0.hasPrefix("--") })
        if mode.contains(where: { "cru".contains($0) }) || !long.isDisjoint(with: ["--create", "--append", "--update"])
        {
            dotTitle = "Writing archive"
        } else if mode.contains(where: { "xtd".contains($0) })
            || !long.isDisjoint(with: ["--extract", "--get", "--list", "--diff", "--compare"])
        {
            dotTitle = "Reading archive"
        }
    }

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        let full = Substring(line.text)
        let dots = full.prefix { $0 == "." }
        let text = full.dropFirst(dots.count)
        if text.isEmpty, !dots.isEmpty {
            countDots(dots.count, &activities)
            dotsBefore += Double(dots.count)
            return true
        }
        if !dots.isEmpty {
            // The dots before an echo line or tar's other output: the text decides what it is.
            countDots(dots.count, &activities)
            dotsBefore += Double(dots.count)
        }
        guard text.hasPrefix("tar: ") else { return false }
        let body = text.dropFirst(5)
        if body.hasPrefix("Error is not recoverable") || body.hasPrefix("Exiting with failure status") {
            failed = true
            activities.fail(nil, error: activities.failureMessage ?? String(text))
            return false
        }
        let words = body.words
        guard let count = words.last.flatMap(NumberText.integer), words.count >= 2,
            words.dropLast().allSatisfy({ $0.allSatisfy { $0.isLetter || $0 == "-" } })
        else {
            if body.contains(": ") { activities.noteError(String(text)) }
            return false
        }
        let title =
            switch words[0] {
            case "Write": "Writing archive"
            case "Read": "Reading archive"
            default: String(words.dropLast().joined(separator: " "))
            }
        seen = true
        echoSeen = true
        activities.update(Self.key, title: title, unit: "records", completed: count)
        // With dots beside the echo lines (`.tar: Write checkpoint 400`) the line is progress too.
        return true
    }

    mutating func readUnfinished(_ line: AdapterLine, _ activities: inout AdaptedActivities) {
        let text = Substring(line.text)
        guard !text.isEmpty, text.allSatisfy({ $0 == "." }) else { return }
        countDots(text.count, &activities)
    }

    /// The dots so far, `dots` of them on the current line.
    private mutating func countDots(_ dots: Int, _ activities: inout AdaptedActivities) {
        guard !echoSeen else { return }
        seen = true
        let checkpoints = dotsBefore + Double(dots)
        if let interval {
            activities.update(Self.key, title: dotTitle, unit: "records", completed: checkpoints * interval)
        } else {
            activities.update(Self.key, title: dotTitle, unit: "checkpoints", completed: checkpoints)
        }
    }

    mutating func inputEnded(_ activities: inout AdaptedActivities) {
        if seen && !failed { activities.markProbablyComplete(Self.key) }
    }
}
