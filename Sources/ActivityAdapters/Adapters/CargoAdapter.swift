/// cargo's build progress (Rust), on a terminal and in a pipe.
///
/// On a terminal cargo redraws a status line, `Building [=====>   ] 12/22: crate, crate2`: the
/// units built of all, the ones compiling now as the message. In a pipe there is none: the
/// `Compiling NAME vVERSION` lines (which pass through, on a terminal too) are counted, without a
/// total. `Finished …` completes the build at its total; `error: could not compile …` fails it
/// with the first `error…:` line before it (rustc's diagnostic), which passes through.
struct CargoAdapter: ToolAdapter {
    private static let key = "build"
    /// The status line was seen: its counts are cargo's, and `Compiling` lines add nothing.
    private var statusSeen = false
    private var compiled = 0.0
    private var firstError: String?

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        let text = Substring(line.text).trimmingSpaces
        if let status = Self.status(text) {
            statusSeen = true
            activities.update(
                Self.key, title: "Building", completed: status.done, total: status.total, message: status.units)
            return true
        }
        let words = text.words
        guard let first = words.first else { return false }
        switch first {
        case "Compiling" where words.count >= 3 && Self.isVersion(words[2]):
            activities.update(Self.key, title: "Building", message: String(words[1]))
            if !statusSeen {
                compiled += 1
                activities.update(Self.key, title: "Building", completed: compiled)
            }
        case "Finished" where words.count >= 2:
            if let total = activities.total(Self.key) {
                activities.update(Self.key, title: "Building", completed: total)
            }
            activities.markComplete(Self.key)
        case _ where text.hasPrefix("error: could not compile "):
            activities.fail(nil, error: firstError ?? String(text))
        case _ where text.hasPrefix("error:") || text.hasPrefix("error["):
            if firstError == nil { firstError = String(text) }
            activities.noteError(String(text))
        default:
            break
        }
        return false
    }

    /// `Building [=====>   ] 12/22: crate, crate2`.
    private static func status(_ text: Substring) -> (done: Double, total: Double, units: String?)? {
        guard text.hasPrefix("Building ["), let close = text.firstIndex(of: "]") else { return nil }
        let bar = text[text.index(text.startIndex, offsetBy: 10)..<close]
        guard bar.count >= 3, bar.allSatisfy({ "=> ".contains($0) }) else { return nil }
        let rest = text[text.index(after: close)...].trimmingSpaces
        let counts = rest.prefix { $0 != ":" }
        let parts = counts.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let done = NumberText.integer(parts[0]), let total = NumberText.integer(parts[1]),
            total > 0, done <= total
        else { return nil }
        let units = rest.dropFirst(counts.count).dropFirst().trimmingSpaces
        guard counts.count == rest.count || rest.dropFirst(counts.count).hasPrefix(":") else { return nil }
        return (done, total, units.isEmpty ? nil : String(units))
    }

    /// `v0.1.0`, `v1.0.0-rc.1`.
    private static func isVersion(_ word: Substring) -> Bool {
        guard word.hasPrefix("v"), word.count > 1 else { return false }
        return word.dropFirst().first.map(NumberText.isDigit) ?? false && word.contains(".")
    }
}
