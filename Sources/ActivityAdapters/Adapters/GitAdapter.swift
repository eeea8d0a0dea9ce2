/// git's progress (`clone`, `fetch`, `push` with `--progress`, or on a terminal): one activity per
/// phase, counted in objects, with the bytes and rate as its message.
///
/// Reads `[remote: ]TITLE: PCT% (N/M)[, SIZE | RATE][, done.]` and `[remote: ]TITLE: N[, done.]`
/// by their shape, so translated titles and `done.` (`fertig.`) are read too. `fatal:` (and the
/// German `Schwerwiegend:`) ends the open phases as failures with the message, which still passes
/// through.
struct GitAdapter: ToolAdapter {
    static let fatalPrefixes = ["fatal: ", "Schwerwiegend: "]

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        let text = line.text
        for prefix in Self.fatalPrefixes where text.hasPrefix(prefix) {
            activities.fail(nil, error: text.trimmingCharacters(" "))
            return false
        }
        guard let phase = Self.phase(text) else { return false }
        activities.update(
            phase.title, title: phase.title, completed: phase.completed, total: phase.total, message: phase.detail)
        if phase.done {
            activities.succeed(phase.title)
        }
        return true
    }

    struct Phase {
        var title: String
        var completed: Double
        var total: Double?
        var detail: String?
        var done: Bool
    }

    /// Parses one progress line; `nil` when the line is not one.
    static func phase(_ text: String) -> Phase? {
        var body = Substring(text).trimmingSpaces
        var remote = false
        if body.hasPrefix("remote: ") {
            remote = true
            body = body.dropFirst("remote: ".count)
        }
        guard let colon = body.firstRange(of: ": ") else { return nil }
        let title = body[..<colon.lowerBound]
        guard !title.isEmpty, title.count <= 64,
            title.allSatisfy({ $0.isLetter || $0 == " " || $0 == "-" || $0 == "'" }),
            let first = title.first, first.isLetter
        else { return nil }
        let fields = body[colon.upperBound...].split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingSpaces }
        guard let counts = fields.first else { return nil }
        var phase = Phase(title: (remote ? "remote: " : "") + title, completed: 0, total: nil, detail: nil, done: false)
        let countWords = counts.words
        if countWords.count == 1, let count = NumberText.integer(countWords[0]) {
            phase.completed = count
        } else if countWords.count == 2, countWords[0].hasSuffix("%"),
            NumberText.integer(countWords[0].dropLast()) != nil,
            countWords[1].hasPrefix("("), countWords[1].hasSuffix(")")
        {
            let pair = countWords[1].dropFirst().dropLast().split(separator: "/", omittingEmptySubsequences: false)
            guard pair.count == 2, let done = NumberText.integer(pair[0]), let total = NumberText.integer(pair[1])
            else { return nil }
            phase.completed = done
            phase.total = total
        } else {
            return nil
        }
        for field in fields.dropFirst() {
            if isDoneMarker(field) && !phase.done {
                phase.done = true
            } else if field.contains("|") || NumberText.size(field) != nil {
                phase.detail = String(field)
            } else {
                return nil
            }
        }
        return phase
    }

    /// `done.`, or its translation: one word (letters only) and a full stop.
    static func isDoneMarker(_ field: Substring) -> Bool {
        guard field.hasSuffix("."), field.count > 1 else { return false }
        return field.dropLast().allSatisfy(\.isLetter)
    }
}

extension String {
    /// Without leading and trailing occurrences of `character`.
    func trimmingCharacters(_ character: Character) -> String {
        String(Substring(self).drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
