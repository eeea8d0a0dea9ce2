import ActivityWire

/// Nix's `--log-format internal-json` (`nix build`, `nix-build`, `nix-store`, ...): lines of
/// `@nix {json}` on standard error, each an `action`: `start` and `stop` of an activity (with its
/// `id`, `parent`, `type`, `text` and `fields`), a `result` for one (`type` 105 is progress:
/// `fields` done, expected, running, failed), or a `msg` at a `level`.
///
/// Every Nix activity is one of ours, nested as Nix nests them, titled by its text (`building
/// '/nix/store/…-hello.drv'`, `downloading '…'`) or by its type where it has none (`Building`,
/// `Copying paths`). Progress counts what Nix counts: bytes for a path's copy and a download,
/// derivations or paths for the others. A build's phase and last log line are its message. A
/// `msg` is a log line at its level; an error that names the derivation of an open build fails
/// that build, and the first error is the command's failure message. An activity whose progress
/// counted failures ends as a failure; any other `stop` is a success. The `@nix` lines are
/// consumed; anything else passes through.
struct NixAdapter: ToolAdapter {
    private static let prefix = Array("@nix ".utf8)
    /// The derivation each open build activity builds, by key, so that an error naming it fails it.
    private var derivations: [String: String] = [:]
    /// The failures each open activity's last progress counted.
    private var failures: [String: Double] = [:]

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        guard line.bytes.starts(with: Self.prefix),
            let entry = JSONValue.parse(line.bytes.dropFirst(Self.prefix.count)),
            let action = entry["action"]?.string
        else { return false }
        switch action {
        case "start":
            start(entry, &activities)
        case "stop":
            guard let key = Self.key(entry["id"]) else { break }
            if let failed = failures[key], failed > 0 {
                activities.fail(key, error: "\(Self.count(failed)) failed")
            } else {
                activities.succeed(key)
            }
            derivations[key] = nil
            failures[key] = nil
        case "result":
            result(entry, &activities)
        case "msg":
            message(entry, &activities)
        default:
            break
        }
        return true
    }

    private mutating func start(_ entry: JSONValue, _ activities: inout AdaptedActivities) {
        guard let key = Self.key(entry["id"]), !activities.isOpen(key) else { return }
        let type = entry["type"]?.number ?? 0
        let text = TerminalSanitizer.display(entry["text"]?.string ?? "")
        let parent = Self.key(entry["parent"])
        activities.update(
            key, title: text.isEmpty ? Self.title(type) : text, unit: Self.countsBytes(type) ? "bytes" : nil,
            completed: 0, under: parent.flatMap { activities.isOpen($0) ? $0 : nil })
        guard activities.isOpen(key) else { return }
        if type == 105, let derivation = entry["fields"]?.array?.first?.string, !derivation.isEmpty {
            derivations[key] = derivation
        }
    }

    private mutating func result(_ entry: JSONValue, _ activities: inout AdaptedActivities) {
        guard let key = Self.key(entry["id"]), activities.isOpen(key) else { return }
        let fields = entry["fields"]?.array ?? []
        switch entry["type"]?.number {
        case 105:  // resProgress: done, expected, running, failed
            let numbers = fields.map { $0.number ?? 0 }
            guard numbers.count >= 2 else { return }
            let running = numbers.count > 2 ? numbers[2] : 0
            let failed = numbers.count > 3 ? numbers[3] : 0
            failures[key] = failed
            var words: [String] = []
            if running > 0 { words.append("\(Self.count(running)) running") }
            if failed > 0 { words.append("\(Self.count(failed)) failed") }
            activities.update(
                key, title: "", completed: numbers[0], total: numbers[1] > 0 ? numbers[1] : nil,
                message: words.isEmpty ? nil : words.joined(separator: ", "))
        case 101, 104, 107:  // resBuildLogLine, resSetPhase, resPostBuildLogLine
            guard let text = fields.first?.string else { return }
            let line = TerminalSanitizer.display(text)
            guard !line.isEmpty else { return }
            activities.update(key, title: "", message: line)
        default:
            break
        }
    }

    private mutating func message(_ entry: JSONValue, _ activities: inout AdaptedActivities) {
        guard let text = entry["msg"]?.string else { return }
        let line = TerminalSanitizer.display(text)
        guard !line.isEmpty else { return }
        switch entry["level"]?.number ?? 3 {
        case 0:  // lvlError
            let first = TerminalSanitizer.display(String(text.prefix { $0 != "\n" }))
            activities.log(line, level: .error)
            if let failed = derivations.first(where: { text.contains($0.value) })?.key {
                activities.fail(failed, error: first)
                derivations[failed] = nil
                failures[failed] = nil
            } else {
                activities.noteError(first)
            }
        case 1: activities.log(line, level: .warning)
        case 2, 3: activities.log(line)
        default: activities.log(line, level: .debug)
        }
    }

    /// Nix's activity ids are integers; ours are their decimal text.
    private static func key(_ value: JSONValue?) -> String? {
        guard let number = value?.number, number > 0, let id = UInt64(exactly: number) else { return nil }
        return String(id)
    }

    private static func count(_ value: Double) -> String {
        UInt64(exactly: value).map(String.init) ?? "\(value)"
    }

    /// actCopyPath (100) and actFileTransfer (101) count bytes.
    private static func countsBytes(_ type: Double) -> Bool { type == 100 || type == 101 }

    /// A title for the activity types Nix starts without text.
    private static func title(_ type: Double) -> String {
        switch type {
        case 100: "Copying a path"
        case 101: "Downloading"
        case 102: "Realising"
        case 103: "Copying paths"
        case 104: "Building"
        case 105: "Building a derivation"
        case 106: "Optimising the store"
        case 107: "Verifying paths"
        case 108: "Substituting"
        case 109: "Querying path info"
        case 110: "Running the post-build hook"
        case 111: "Waiting to build"
        case 112: "Fetching"
        default: "Nix"
        }
    }
}
