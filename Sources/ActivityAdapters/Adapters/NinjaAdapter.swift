/// Ninja-style status lines, `[n/m] text` (ninja, `swift build`, meson and CMake with ninja): one
/// activity with total m, completed n and the text as its message. `[m/m]` (or `swift build`'s `Build complete!`) completes it;
/// `FAILED: …` and `ninja: build stopped: …` are failures (the lines pass through).
struct NinjaAdapter: ToolAdapter {
    private static let key = "build"

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        let text = Substring(line.text)
        if text.hasPrefix("FAILED: ") {
            activities.noteError(String(text.trimmingSpaces))
            return false
        }
        if text == "Build complete!" || text.hasPrefix("Build complete! (") {
            activities.markComplete(Self.key)
            return false
        }
        if text.hasPrefix("ninja: build stopped: ") {
            activities.fail(nil, error: activities.failureMessage ?? String(text))
            return false
        }
        guard text.hasPrefix("["), let close = text.firstIndex(of: "]") else { return false }
        let pair = text[text.index(after: text.startIndex)..<close].split(separator: "/")
        guard pair.count == 2, let done = NumberText.integer(pair[0]), let total = NumberText.integer(pair[1]),
            done <= total
        else { return false }
        let message = text[text.index(after: close)...].trimmingSpaces
        activities.update(
            Self.key, title: "Building", completed: done, total: total, message: message.isEmpty ? nil : String(message)
        )
        if done == total { activities.markComplete(Self.key) }
        return true
    }
}
