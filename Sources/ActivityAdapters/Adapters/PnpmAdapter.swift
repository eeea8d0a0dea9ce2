import ActivityWire

/// pnpm's `--reporter=ndjson`: pnpm's own log records, one JSON object per line, each with a
/// `name` (`pnpm:progress`, `pnpm:stage`, `pnpm:fetching-progress`, `pnpm:lifecycle`, ...) and a
/// `level`.
///
/// The install is one activity, `Installing`, counting the packages added (`imported`) of the
/// packages resolved, with pnpm's own tally as its message (`resolved 12, reused 10, downloaded 2,
/// added 12`, as its default reporter prints it); `importing_done` completes it. A download pnpm
/// reports the size of (`pnpm:fetching-progress`) nests under it, in bytes, until the package is
/// fetched. A dependency's lifecycle script (`postinstall`) nests under it, its output's last line
/// as its message, and ends by its exit code. An `error` record is an error log line and fails
/// what is open (pnpm stops there), a `warn` record is a warning. The JSON lines are consumed; anything
/// else passes through.
struct PnpmAdapter: ToolAdapter {
    private static let install = "install"
    private var resolved = 0.0
    private var reused = 0.0
    private var downloaded = 0.0
    private var added = 0.0
    /// An error record came: pnpm has stopped, and what follows (its summary) begins nothing.
    private var stopped = false

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        guard line.bytes.first == UInt8(ascii: "{"), let record = JSONValue.parse(line.bytes),
            let name = record["name"]?.string, name == "pnpm" || name.hasPrefix("pnpm:"),
            let level = record["level"]?.string
        else { return false }
        guard !stopped else { return true }
        if !activities.isOpen(Self.install) { activities.update(Self.install, title: "Installing", completed: 0) }
        switch name {
        case "pnpm:progress":
            readProgress(record, &activities)
        case "pnpm:stage":
            if (record["stage"] ?? record["message"])?.string == "importing_done" {
                activities.update(Self.install, title: "Installing", completed: max(added, resolved))
                activities.markComplete(Self.install)
            }
        case "pnpm:fetching-progress":
            guard let package = record["packageId"]?.string else { break }
            let key = "download \(package)"
            if record["status"]?.string == "started", let size = record["size"]?.number, size > 0 {
                activities.update(
                    key, title: "Downloading \(TerminalSanitizer.display(package))", unit: "bytes", completed: 0,
                    total: size, under: Self.install)
            } else if record["status"]?.string == "in_progress", activities.isOpen(key) {
                activities.update(key, title: "", completed: record["downloaded"]?.number)
            }
        case "pnpm:lifecycle":
            readLifecycle(record, &activities)
        default:
            break
        }
        let message = TerminalSanitizer.display(record["err"]?["message"]?.string ?? record["message"]?.string ?? "")
        if level == "error", !message.isEmpty {
            // pnpm stops at its error: what is open ends with it.
            activities.log(message, level: .error)
            activities.fail(nil, error: message)
            stopped = true
        } else if level == "warn", !message.isEmpty, name == "pnpm" {
            activities.log(message, level: .warning)
        }
        return true
    }

    private mutating func readProgress(_ record: JSONValue, _ activities: inout AdaptedActivities) {
        switch record["status"]?.string {
        case "resolved": resolved += 1
        case "found_in_store": reused += 1
        case "fetched":
            downloaded += 1
            if let package = record["packageId"]?.string { activities.succeed("download \(package)") }
        case "imported": added += 1
        default: return
        }
        let tally = [("resolved", resolved), ("reused", reused), ("downloaded", downloaded), ("added", added)]
            .map { "\($0.0) \(UInt64(exactly: $0.1).map(String.init) ?? "")" }.joined(separator: ", ")
        activities.update(Self.install, title: "Installing", completed: added, total: resolved, message: tally)
    }

    private func readLifecycle(_ record: JSONValue, _ activities: inout AdaptedActivities) {
        guard let package = record["depPath"]?.string, let stage = record["stage"]?.string else { return }
        let key = "script \(package) \(stage)"
        let title = "\(TerminalSanitizer.display(package)) \(TerminalSanitizer.display(stage))"
        if let script = record["script"]?.string {
            activities.update(key, title: title, message: TerminalSanitizer.display(script), under: Self.install)
        } else if let line = record["line"]?.string, activities.isOpen(key) {
            let text = TerminalSanitizer.display(line)
            if !text.isEmpty { activities.update(key, title: title, message: text) }
        } else if let code = record["exitCode"]?.number, activities.isOpen(key) {
            if code == 0 {
                activities.succeed(key)
            } else {
                let status = UInt64(exactly: code).map(String.init) ?? "\(code)"
                activities.fail(key, error: "\(title) exited with status \(status)")
            }
        }
    }
}
