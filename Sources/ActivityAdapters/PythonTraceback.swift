/// Follows a Python traceback through a tool's output: its last line, the exception
/// (`RuntimeError: connection reset`), is the error the command's failure carries. The lines
/// themselves pass through; only the error is noted (the exit status decides the outcome).
struct PythonTraceback {
    private var inTraceback = false

    mutating func read(_ text: String, _ activities: inout AdaptedActivities) {
        if text == "Traceback (most recent call last):" {
            inTraceback = true
        } else if inTraceback, let first = text.first, first != " " {
            inTraceback = false
            activities.noteError(String(text.prefix(200)))
        }
    }
}
