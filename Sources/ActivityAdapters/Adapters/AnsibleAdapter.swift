import ActivityWire

/// ansible-playbook's output: its default one (`PLAY [..] ***`, `TASK [..] ***`, `ok: [host]`,
/// `fatal: [host]: FAILED! => {...}`, `PLAY RECAP`) and the `ansible.posix.jsonl` stdout callback
/// (`ANSIBLE_STDOUT_CALLBACK=ansible.posix.jsonl`: one JSON object per event).
///
/// A play is an activity counting its finished tasks; each task nests under its play, counting the
/// hosts that reported, with the last host's outcome (`changed: web1`) as its message. Neither
/// format says in advance how many tasks or hosts there are, so there are no totals. A task ends
/// when the next one (or play, or the recap) begins: as a failure when a host failed or was
/// unreachable, and its play fails with it. The default output's `...ignoring` after a failure
/// takes the failure back. The default output passes through (it is what the person reads); the
/// jsonl events are consumed.
struct AnsibleAdapter: ToolAdapter {
    private static let play = "play"
    private static let task = "task"
    private var tasksDone = 0.0
    private var hostsDone = 0.0
    /// The first failure of the open task, which `...ignoring` may still take back.
    private var taskFailure: String?
    private var playFailure: String?

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        if line.bytes.first == UInt8(ascii: "{"), let event = JSONValue.parse(line.bytes),
            let name = event["_event"]?.string, name.hasPrefix("v2_")
        {
            readEvent(name, event, &activities)
            return true
        }
        readDefault(Substring(line.text).trimmingSpaces, &activities)
        return false
    }

    mutating func inputEnded(_ activities: inout AdaptedActivities) {
        // A failure that nothing took back is the task's outcome, whatever came after it.
        if taskFailure != nil {
            endTask(&activities)
            endPlay(&activities)
        }
    }

    // MARK: - The jsonl callback

    private mutating func readEvent(_ name: String, _ event: JSONValue, _ activities: inout AdaptedActivities) {
        switch name {
        case "v2_playbook_on_play_start":
            beginPlay(event["play"]?["name"]?.string ?? "", &activities)
        case "v2_playbook_on_task_start", "v2_playbook_on_handler_task_start":
            beginTask(event["task"]?["name"]?.string ?? "", &activities)
        case "v2_runner_on_ok", "v2_runner_on_failed", "v2_runner_on_unreachable", "v2_runner_on_skipped":
            for (host, result) in event["hosts"]?.members ?? [] {
                let message = result["msg"]?.string.map { ": \($0)" } ?? ""
                switch name {
                case "v2_runner_on_failed": hostFailed("\(host)\(message)", &activities)
                case "v2_runner_on_unreachable": hostFailed("\(host): unreachable\(message)", &activities)
                case "v2_runner_on_skipped": hostReported("skipping: \(host)", &activities)
                default: hostReported("\(result["changed"]?.bool == true ? "changed" : "ok"): \(host)", &activities)
                }
            }
        case "v2_playbook_on_stats":
            endTask(&activities)
            endPlay(&activities)
        default:
            break
        }
    }

    // MARK: - The default output

    private mutating func readDefault(_ text: Substring, _ activities: inout AdaptedActivities) {
        if let title = Self.banner(text, "PLAY") {
            if title == "RECAP" && !text.hasPrefix("PLAY [") {
                endTask(&activities)
                endPlay(&activities)
            } else {
                beginPlay(String(title), &activities)
            }
        } else if let title = Self.banner(text, "TASK") ?? Self.banner(text, "RUNNING HANDLER") {
            beginTask(String(title), &activities)
        } else if text == "...ignoring" {
            taskFailure = nil
        } else if let (outcome, host, rest) = Self.hostLine(text) {
            switch outcome {
            case "ok", "changed", "skipping":
                hostReported("\(outcome): \(host)", &activities)
            case "fatal", "failed":
                let detail = rest.firstRange(of: "=> ").flatMap { JSONValue.parse(rest[$0.upperBound...].utf8) }
                let message = detail?["msg"]?.string.map { ": \($0)" } ?? ""
                let unreachable = rest.hasPrefix(": UNREACHABLE!") ? ": unreachable" : ""
                hostFailed("\(host)\(unreachable)\(message)", &activities)
            default:
                break
            }
        }
    }

    /// `PLAY [name] ****`, `TASK [name] ****`, `PLAY RECAP ****` (as `RECAP`).
    private static func banner(_ text: Substring, _ word: String) -> Substring? {
        guard text.hasPrefix(word + " "), text.hasSuffix("***") else { return nil }
        let rest = text.dropFirst(word.count + 1)
        if rest.hasPrefix("RECAP ") { return "RECAP" }
        guard rest.hasPrefix("["), let close = rest.lastIndex(of: "]"),
            rest[rest.index(after: close)...].allSatisfy({ $0 == " " || $0 == "*" })
        else { return nil }
        return rest[rest.index(after: rest.startIndex)..<close]
    }

    /// `ok: [host]`, `changed: [host] => {...}`, `fatal: [host]: FAILED! => {...}`,
    /// `failed: [host] (item=x) => {...}`: the outcome, the host and what follows it.
    private static func hostLine(_ text: Substring) -> (Substring, Substring, Substring)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let outcome = text[..<colon]
        guard ["ok", "changed", "skipping", "fatal", "failed"].contains(outcome) else { return nil }
        let rest = text[text.index(after: colon)...]
        guard rest.hasPrefix(" ["), let close = rest.firstIndex(of: "]") else { return nil }
        let host = rest[rest.index(rest.startIndex, offsetBy: 2)..<close]
        guard !host.isEmpty else { return nil }
        return (outcome, host, rest[rest.index(after: close)...])
    }

    // MARK: - Plays and tasks

    private mutating func beginPlay(_ name: String, _ activities: inout AdaptedActivities) {
        endTask(&activities)
        endPlay(&activities)
        tasksDone = 0
        activities.update(Self.play, title: name.isEmpty ? "Play" : name, completed: 0)
    }

    private mutating func beginTask(_ name: String, _ activities: inout AdaptedActivities) {
        endTask(&activities)
        hostsDone = 0
        if !activities.isOpen(Self.play) { activities.update(Self.play, title: "Play") }
        activities.update(Self.task, title: name.isEmpty ? "Task" : name, completed: 0, under: Self.play)
    }

    private mutating func hostReported(_ message: String, _ activities: inout AdaptedActivities) {
        guard activities.isOpen(Self.task) else { return }
        hostsDone += 1
        activities.update(Self.task, title: "Task", completed: hostsDone, message: message)
    }

    private mutating func hostFailed(_ error: String, _ activities: inout AdaptedActivities) {
        guard activities.isOpen(Self.task) else { return }
        if taskFailure == nil { taskFailure = error }
        hostReported(error, &activities)
    }

    private mutating func endTask(_ activities: inout AdaptedActivities) {
        defer { taskFailure = nil }
        guard activities.isOpen(Self.task) else { return }
        if let taskFailure {
            activities.fail(Self.task, error: taskFailure)
            if playFailure == nil { playFailure = taskFailure }
        } else {
            activities.succeed(Self.task)
        }
        tasksDone += 1
        activities.update(Self.play, title: "Play", completed: tasksDone)
    }

    private mutating func endPlay(_ activities: inout AdaptedActivities) {
        defer { playFailure = nil }
        guard activities.isOpen(Self.play) else { return }
        if let playFailure { activities.fail(Self.play, error: playFailure) } else { activities.succeed(Self.play) }
    }
}
