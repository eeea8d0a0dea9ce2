import ActivityWire

/// BuildKit's `--progress=rawjson` (`docker buildx build`, `docker build`, `buildctl build`): one
/// JSON `SolveStatus` per line on standard error, with `vertexes` (a step: `digest`, `name`,
/// `started`, `completed`, `cached`, `error`), `statuses` (a step's piece of work: `id`,
/// `vertex`, `name`, `current`, `total`, `completed`), `logs` (a step's output: `vertex`,
/// `data` in base64) and `warnings`.
///
/// The build is one activity, `Building`, counting the steps finished of the steps seen, as
/// BuildKit's own display does (`[+] Building 12.3s (8/10)`). Each step nests under it from its
/// start, titled by its name (`[2/3] RUN make`), `CACHED` as the message of one taken from the
/// cache; its error fails it and is the command's failure message. A status (a layer's
/// download, the context's transfer) nests under its step, in bytes. A step's output lines are
/// log lines of the step, its last one the step's message; a warning is a warning. The JSON
/// lines are consumed; anything else passes through.
struct BuildKitAdapter: ToolAdapter {
    private static let build = "build"
    /// The most finished steps and statuses remembered, so that BuildKit's repeats of a
    /// finished one do not begin it again.
    private static let maxFinished = 4096
    private var finished: Set<String> = []
    private var finishedOrder: [String] = []
    private var steps: Set<String> = []
    private var stepsDone = 0.0

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        guard line.bytes.first == UInt8(ascii: "{"), let status = JSONValue.parse(line.bytes),
            let members = status.members,
            members.contains(where: { ["vertexes", "statuses", "logs", "warnings"].contains($0.key) })
        else { return false }
        for vertex in status["vertexes"]?.array ?? [] { readVertex(vertex, &activities) }
        for item in status["statuses"]?.array ?? [] { readStatus(item, &activities) }
        for log in status["logs"]?.array ?? [] { readLog(log, &activities) }
        for warning in status["warnings"]?.array ?? [] {
            guard let short = warning["short"]?.string.flatMap(Base64.decode) else { continue }
            let text = TerminalSanitizer.display(String(decoding: short, as: UTF8.self))
            if !text.isEmpty { activities.log(text, level: .warning, key: warning["vertex"]?.string.map(Self.key)) }
        }
        return true
    }

    private mutating func readVertex(_ vertex: JSONValue, _ activities: inout AdaptedActivities) {
        guard let digest = vertex["digest"]?.string, !digest.isEmpty else { return }
        let key = Self.key(digest)
        let cached = vertex["cached"]?.bool == true
        let error = vertex["error"]?.string ?? ""
        let completed = vertex["completed"]?.string != nil
        // A step waiting for its inputs is not shown until it starts, as in BuildKit's display.
        guard !finished.contains(key), vertex["started"]?.string != nil || completed || cached || !error.isEmpty
        else { return }
        if !activities.isOpen(Self.build) { activities.update(Self.build, title: "Building", completed: stepsDone) }
        if steps.count < Self.maxFinished, steps.insert(key).inserted {
            activities.update(Self.build, title: "Building", total: Double(steps.count))
        }
        let name = TerminalSanitizer.display(vertex["name"]?.string ?? "")
        activities.update(
            key, title: name.isEmpty ? digest : name, message: cached ? "CACHED" : nil, under: Self.build)
        guard completed || !error.isEmpty else { return }
        if error.isEmpty {
            activities.succeed(key)
            stepsDone += 1
            activities.update(Self.build, title: "Building", completed: stepsDone)
        } else {
            activities.fail(key, error: TerminalSanitizer.display(error))
        }
        remember(key)
    }

    private mutating func readStatus(_ item: JSONValue, _ activities: inout AdaptedActivities) {
        guard let id = item["id"]?.string, !id.isEmpty, let digest = item["vertex"]?.string else { return }
        let parent = Self.key(digest)
        let key = "status \(digest) \(id)"
        guard !finished.contains(key), activities.isOpen(parent) else { return }
        let total = item["total"]?.number ?? 0
        let name = TerminalSanitizer.display(item["name"]?.string ?? "")
        activities.update(
            key, title: name.isEmpty ? TerminalSanitizer.display(id) : name, unit: "bytes",
            completed: item["current"]?.number, total: total > 0 ? total : nil, under: parent)
        guard item["completed"]?.string != nil else { return }
        activities.succeed(key)
        remember(key)
    }

    private func readLog(_ log: JSONValue, _ activities: inout AdaptedActivities) {
        guard let digest = log["vertex"]?.string, let data = log["data"]?.string.flatMap(Base64.decode) else { return }
        let key = Self.key(digest)
        var last: String?
        for line in data.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            let text = TerminalSanitizer.display(String(decoding: line, as: UTF8.self))
            guard !text.isEmpty else { continue }
            activities.log(text, key: key)
            last = text
        }
        if let last, activities.isOpen(key) { activities.update(key, title: "", message: last) }
    }

    private mutating func remember(_ key: String) {
        if finishedOrder.count == Self.maxFinished { finished.remove(finishedOrder.removeFirst()) }
        finished.insert(key)
        finishedOrder.append(key)
    }

    private static func key(_ digest: String) -> String { "step \(digest)" }
}
