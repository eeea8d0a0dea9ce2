/// GNU tar's checkpoints (`--checkpoint=N --checkpoint-action=echo`): `tar: Write checkpoint 500`
/// counts records (10240 bytes with the default blocking factor). Read by their shape, so
/// translated words (`tar: Schreib-Kontrollpunkt 500`) are read too; the count has no total.
/// tar prints no completion, so the end of its output completes the activity unless it printed
/// `tar: Error is not recoverable` or `tar: Exiting with failure status`, or its exit status (a
/// tar killed by Ctrl-C) says otherwise.
struct TarAdapter: ToolAdapter {
    private static let key = "archive"
    private var seen = false
    private var failed = false

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        let text = Substring(line.text)
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
        activities.update(Self.key, title: title, unit: "records", completed: count)
        return true
    }

    mutating func inputEnded(_ activities: inout AdaptedActivities) {
        if seen && !failed { activities.markProbablyComplete(Self.key) }
    }
}
