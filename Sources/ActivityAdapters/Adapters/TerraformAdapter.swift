import ActivityWire

/// Terraform's and OpenTofu's machine-readable UI (`terraform apply -json`, `tofu plan -json`):
/// one JSON object per line with `@level`, `@message` and a `type`.
///
/// The run is one activity (`Applying`, `Planning`, `Destroying`, `Refreshing`, from the command
/// line), counting the resources applied of the plan's `change_summary` (`add + change + remove`).
/// Each resource's apply (`apply_start`, `apply_progress`, `apply_complete`, `apply_errored`) and
/// refresh is an activity under the run's, titled by the resource's address, with Terraform's
/// words (`Still creating... [10s elapsed]`) as its message. A `diagnostic` becomes a log line at
/// its severity (an error is the command's failure message); the apply's `change_summary`
/// completes the run. The JSON lines are consumed; anything else passes through.
struct TerraformAdapter: ToolAdapter {
    private static let run = "run"
    private let title: String
    private var applied = 0.0
    private var planSummarized = false
    private var applyStarted = false

    init(command: [String]) {
        let words = command.dropFirst()
        title =
            if words.contains("-destroy") || words.contains("destroy") {
                "Destroying"
            } else if words.contains("apply") {
                "Applying"
            } else if words.contains("plan") {
                "Planning"
            } else if words.contains("refresh") {
                "Refreshing"
            } else {
                "Terraform"
            }
    }

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        guard line.bytes.first == UInt8(ascii: "{"), let message = JSONValue.parse(line.bytes),
            let type = message["type"]?.string, let text = message["@message"]?.string,
            message["@level"]?.string != nil
        else { return false }
        if !activities.isOpen(Self.run) { activities.update(Self.run, title: title, completed: 0) }
        switch type {
        case "version":
            activities.update(Self.run, title: title, message: text)
        case "planned_change", "resource_drift":
            activities.update(Self.run, title: title, message: text)
        case "change_summary":
            readSummary(message["changes"], text, &activities)
        case "provision_start", "provision_progress", "provision_complete", "provision_errored":
            // Provisioners run inside their resource's apply, which ends after them.
            guard let address = Self.address(message), activities.isOpen(Self.key("apply", address)) else { break }
            activities.update(Self.key("apply", address), title: address, message: Self.words(text, address))
        case "apply_start", "refresh_start", "ephemeral_op_start":
            guard let address = Self.address(message) else { break }
            let key = Self.key(type, address)
            if type == "apply_start" { applyStarted = true }
            activities.update(key, title: address, completed: 0, message: Self.words(text, address), under: Self.run)
        case "apply_progress", "ephemeral_op_progress":
            guard let address = Self.address(message) else { break }
            activities.update(
                Self.key(type, address), title: address, message: Self.words(text, address), under: Self.run)
        case "apply_complete", "refresh_complete", "ephemeral_op_complete":
            guard let address = Self.address(message) else { break }
            let key = Self.key(type, address)
            activities.update(key, title: address, message: Self.words(text, address), under: Self.run)
            activities.succeed(key)
            if type == "apply_complete" { countApplied(&activities) }
        case "apply_errored", "ephemeral_op_errored":
            guard let address = Self.address(message) else { break }
            activities.fail(Self.key(type, address), error: text)
        case "diagnostic":
            readDiagnostic(message, text, &activities)
        default:
            break
        }
        return true
    }

    mutating func inputEnded(_ activities: inout AdaptedActivities) {
        // A plan ends at its summary; an apply goes on after it.
        if planSummarized && !applyStarted { activities.markProbablyComplete(Self.run) }
    }

    private mutating func readSummary(_ changes: JSONValue?, _ text: String, _ activities: inout AdaptedActivities) {
        let count = ["add", "change", "remove"].compactMap { changes?[$0]?.number }.reduce(0, +)
        let operation = changes?["operation"]?.string ?? "plan"
        activities.log(text, key: Self.run)
        if operation == "plan" {
            planSummarized = true
            // The plan's count is the work of the apply to come, not of a `plan` command.
            activities.update(Self.run, title: title, total: title == "Planning" ? nil : count, message: text)
        } else {
            activities.update(Self.run, title: title, completed: max(applied, count), message: text)
            activities.markComplete(Self.run)
        }
    }

    private func readDiagnostic(_ message: JSONValue, _ text: String, _ activities: inout AdaptedActivities) {
        let diagnostic = message["diagnostic"]
        let detail = diagnostic?["detail"]?.string.flatMap { $0.isEmpty ? nil : $0 }
        let line = detail.map { "\(text): \($0)" } ?? text
        switch diagnostic?["severity"]?.string ?? message["@level"]?.string {
        case "error":
            activities.noteError(text)
            activities.log(line, level: .error)
        case "warning", "warn":
            activities.log(line, level: .warning)
        default:
            activities.log(line)
        }
    }

    private mutating func countApplied(_ activities: inout AdaptedActivities) {
        applied += 1
        activities.update(Self.run, title: title, completed: applied)
    }

    /// The resource a hook message is about: `hook.resource.addr`.
    private static func address(_ message: JSONValue) -> String? {
        guard let address = message["hook"]?["resource"]?["addr"]?.string, !address.isEmpty else { return nil }
        return address
    }

    /// A resource's apply, its refresh and an ephemeral resource's operation are activities of their own.
    private static func key(_ type: String, _ address: String) -> String {
        (type.hasPrefix("refresh") ? "refresh " : type.hasPrefix("ephemeral") ? "ephemeral " : "apply ") + address
    }

    /// `random_pet.animal: Creating...` → `Creating...`.
    private static func words(_ text: String, _ address: String) -> String {
        let prefix = address + ": "
        return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }
}
