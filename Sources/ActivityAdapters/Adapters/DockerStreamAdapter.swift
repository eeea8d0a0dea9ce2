import ActivityWire

/// The Docker Engine's JSON message stream (moby's `pkg/jsonmessage`), which the Engine API
/// answers a pull, a push, an image load or a classic build with: one JSON object per line with
/// `status`, `id`, `progressDetail` (`current`, `total`), `progress`, `stream`, `aux`, and
/// `errorDetail` (`message`) with `error`.
///
/// A pull or push is one activity (`Pulling library/alpine:3.19`, `Pushing docker.io/me/app`),
/// counting its layers done of the layers seen; each layer nests under it, titled by its id,
/// in bytes of the phase it is in (`Downloading`, `Extracting`, `Pushing`), the phase as its
/// message; `Pull complete`, `Already exists`, `Pushed`, `Layer already exists` and `Mounted
/// from` end it. `Status: …` and a push's `TAG: digest: … size: N` complete the whole. A classic
/// build's `stream` lines are log lines, its `Step N/M : …` its count, `Successfully built`
/// its completion. An error fails what is open with its message. The JSON lines are consumed;
/// anything else passes through.
struct DockerStreamAdapter: ToolAdapter {
    private static let whole = "whole"
    private static let doneWords = [
        "Pull complete", "Already exists", "Pushed", "Layer already exists", "Mounted from",
    ]
    private var title = "Docker"
    private var layersSeen = 0.0
    private var layersDone = 0.0
    /// An error came: the Engine has stopped the request, and what follows begins nothing.
    private var stopped = false

    mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool {
        guard line.bytes.first == UInt8(ascii: "{"), let message = JSONValue.parse(line.bytes),
            let members = message.members, message["v"] == nil,
            members.contains(where: { ["status", "stream", "errorDetail", "error", "aux"].contains($0.key) })
        else { return false }
        guard !stopped else { return true }
        if let error = message["errorDetail"]?["message"]?.string ?? message["error"]?.string {
            activities.fail(nil, error: TerminalSanitizer.display(error))
            stopped = true
        } else if let stream = message["stream"]?.string {
            readStream(stream, &activities)
        } else if let status = message["status"]?.string {
            readStatus(TerminalSanitizer.display(status), message, &activities)
        }
        return true
    }

    private mutating func readStatus(_ status: String, _ message: JSONValue, _ activities: inout AdaptedActivities) {
        let id = TerminalSanitizer.display(message["id"]?.string ?? "")
        if status.hasPrefix("Pulling from ") {
            title = "Pulling \(status.dropFirst("Pulling from ".count))\(id.isEmpty ? "" : ":\(id)")"
            activities.update(Self.whole, title: title, completed: layersDone)
            return
        }
        if status.hasPrefix("The push refers to repository [") {
            title = "Pushing \(status.dropFirst("The push refers to repository [".count).prefix { $0 != "]" })"
            activities.update(Self.whole, title: title, completed: layersDone)
            return
        }
        if !activities.isOpen(Self.whole) { activities.update(Self.whole, title: title, completed: layersDone) }
        guard !id.isEmpty else {
            activities.update(Self.whole, title: title, message: status)
            if status.hasPrefix("Status: ") || status.contains(": digest: ") { activities.markComplete(Self.whole) }
            return
        }
        let key = "layer \(id)"
        if !activities.isOpen(key) {
            layersSeen += 1
            activities.update(Self.whole, title: title, total: layersSeen)
        }
        let detail = message["progressDetail"]
        let total = detail?["total"]?.number ?? 0
        activities.update(
            key, title: id, unit: "bytes", completed: detail?["current"]?.number, total: total > 0 ? total : nil,
            message: status, under: Self.whole)
        guard Self.doneWords.contains(where: status.hasPrefix) else { return }
        activities.succeed(key)
        layersDone += 1
        activities.update(Self.whole, title: title, completed: layersDone)
    }

    private mutating func readStream(_ stream: String, _ activities: inout AdaptedActivities) {
        for line in stream.split(whereSeparator: \.isNewline) {
            let text = TerminalSanitizer.display(String(line))
            guard !text.isEmpty else { continue }
            defer { activities.log(text, key: activities.isOpen(Self.whole) ? Self.whole : nil) }
            if let (step, steps, instruction) = Self.step(text) {
                title = "Building"
                activities.update(Self.whole, title: title, completed: step - 1, total: steps, message: instruction)
            } else if text.hasPrefix("Successfully built ") {
                activities.update(Self.whole, title: "Building", message: text)
                if let total = activities.total(Self.whole) {
                    activities.update(Self.whole, title: "Building", completed: total)
                }
                activities.markComplete(Self.whole)
            }
        }
    }

    /// `Step 2/3 : RUN make` → (2, 3, `RUN make`).
    private static func step(_ text: String) -> (Double, Double, String)? {
        guard text.hasPrefix("Step "), let colon = text.firstRange(of: " : ") else { return nil }
        let counts = text[text.index(text.startIndex, offsetBy: 5)..<colon.lowerBound].split(separator: "/")
        guard counts.count == 2, let step = NumberText.integer(counts[0]), let steps = NumberText.integer(counts[1]),
            step >= 1
        else { return nil }
        return (step, steps, String(text[colon.upperBound...]))
    }
}
