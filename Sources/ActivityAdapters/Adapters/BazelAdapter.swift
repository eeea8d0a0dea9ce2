import ActivityWire

/// Bazel's Build Event Protocol in JSON (`--build_event_json_file=FILE`): one `BuildEvent` per
/// line, its `id` an object naming its kind (`started`, `pattern`, `progress`,
/// `targetCompleted`, `testSummary`, `buildFinished`, ...), its payload beside it.
///
/// The command is one activity (`bazel build`, `bazel test`, from `started`), counting the
/// targets built of the targets the patterns expanded to (`pattern`'s `targetConfigured`
/// children). The last line of Bazel's console text (`progress`' `stderr`) is its message; a
/// target that failed, a test summary that is not `PASSED` and the console's `ERROR:` lines are
/// error log lines, the first of them the command's failure message. `buildFinished` ends it by
/// its exit code. The JSON lines are consumed; anything else passes through.
struct BazelAdapter: ToolAdapter {
    private static let run = "run"
    private var title = "bazel"
    private var targets = 0.0
    private var completed = 0.0
    /// `buildFinished` came: what follows (metrics, logs) belongs to no activity.
    private var finished = false

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        guard line.bytes.first == UInt8(ascii: "{"), let event = JSONValue.parse(line.bytes),
            let id = event["id"]?.members, id.count == 1, let kind = id.first, kind.value.members != nil
        else { return false }
        if kind.key == "started", let command = event["started"]?["command"]?.string, !command.isEmpty {
            title = "bazel \(TerminalSanitizer.display(command))"
        }
        guard !finished else { return true }
        if !activities.isOpen(Self.run) { activities.update(Self.run, title: title, completed: 0) }
        switch kind.key {
        case "pattern":
            let configured = (event["children"]?.array ?? []).filter { $0["targetConfigured"] != nil }
            targets += Double(configured.count)
            if targets > 0 { activities.update(Self.run, title: title, total: targets) }
        case "progress":
            readConsole(event["progress"]?["stderr"]?.string ?? "", &activities)
        case "targetCompleted":
            let label = kind.value["label"]?.string ?? "a target"
            if event["completed"]?["success"]?.bool == true {
                completed += 1
                activities.update(Self.run, title: title, completed: completed)
            } else {
                let reason = event["aborted"]?["description"]?.string.flatMap { $0.isEmpty ? nil : ": \($0)" } ?? ""
                error("\(TerminalSanitizer.display(label)) failed\(TerminalSanitizer.display(reason))", &activities)
            }
        case "testSummary":
            let status = event["testSummary"]?["overallStatus"]?.string ?? "NO_STATUS"
            if status != "PASSED", let label = kind.value["label"]?.string {
                error("\(TerminalSanitizer.display(label)): \(TerminalSanitizer.display(status))", &activities)
            }
        case "buildFinished":
            finished = true
            let exitCode = event["finished"]?["exitCode"]
            // proto3 JSON leaves a code of 0 out.
            if (exitCode?["code"]?.number ?? 0) == 0 && exitCode?["name"]?.string ?? "SUCCESS" == "SUCCESS" {
                activities.update(Self.run, title: title, completed: max(completed, targets))
                activities.succeed(Self.run)
            } else {
                let name = TerminalSanitizer.display(exitCode?["name"]?.string ?? "FAILED")
                activities.fail(Self.run, error: activities.failureMessage ?? "\(title): \(name)")
            }
        default:
            break
        }
        return true
    }

    private func readConsole(_ text: String, _ activities: inout AdaptedActivities) {
        var last: String?
        for line in text.split(whereSeparator: \.isNewline) {
            let shown = String(Substring(TerminalSanitizer.display(String(line))).trimmingSpaces)
            guard !shown.isEmpty else { continue }
            if shown.hasPrefix("ERROR: ") { error(shown, &activities) }
            last = shown
        }
        if let last { activities.update(Self.run, title: title, message: last) }
    }

    private func error(_ message: String, _ activities: inout AdaptedActivities) {
        activities.log(message, level: .error, key: Self.run)
        activities.noteError(message)
    }
}
