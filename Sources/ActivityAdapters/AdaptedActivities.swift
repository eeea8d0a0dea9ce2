import ActivityWire

/// The activities one adapter reports on, and the events that report them.
///
/// Adapters name their activities with keys of their own (git's phase title, apt's `download`)
/// and say what they learnt: ``update(_:title:unit:completed:total:message:)`` begins an activity
/// the first time and changes it later, ``succeed(_:)`` and ``fail(_:error:)`` end it. Progress is
/// coalesced: at most one `progress` per activity for each chunk of input, and none when nothing
/// changed. At most ``maxOpen`` activities are open at once; more are not begun.
public struct AdaptedActivities {
    /// The tool's name, the title of the activity that carries an error when none is open.
    public let toolName: String
    /// The activity the adapted activities nest under.
    public let parent: ActivityID?
    /// The most activities open at once.
    public static let maxOpen = 32
    /// The first error the tool printed, for the command's own failure.
    public private(set) var failureMessage: String?

    private let idPrefix: String
    private var counter = 0
    private var failureReported = false
    private var open: [Entry] = []
    private(set) var outputs: [AdapterOutput] = []
    /// Passthrough is not kept (``AdapterPipeline/dropsPassthrough``).
    var dropsPassthrough = false

    private struct Entry {
        var key: String
        var id: ActivityID
        /// The adapted activity this one nests under, when it is one.
        var parent: ActivityID?
        var completed: Double
        var total: Double?
        var message: String?
        var sent: (completed: Double, total: Double?, message: String?)
        var completionSeen = false
        var probablyComplete = false
        var reachesTotalOnSuccess = false
    }

    init(toolName: String, parent: ActivityID?, idPrefix: String) {
        self.toolName = toolName
        self.parent = parent
        self.idPrefix = idPrefix
    }

    /// Whether the activity `key` is open.
    public func isOpen(_ key: String) -> Bool { open.contains { $0.key == key } }

    /// The keys of the open activities, oldest first.
    public var openKeys: [String] { open.map(\.key) }

    /// The open activities that began nested under the open activity `key`.
    public func openKeys(under key: String) -> [String] {
        guard let id = open.first(where: { $0.key == key })?.id else { return [] }
        return open.filter { $0.parent == id }.map(\.key)
    }

    /// The work done so far of the open activity `key`.
    public func completed(_ key: String) -> Double? { open.first { $0.key == key }?.completed }

    /// The total of the open activity `key`, when known.
    public func total(_ key: String) -> Double? { open.first { $0.key == key }?.total }

    /// Begins the activity `key` if it is not open, then sets what is given.
    ///
    /// - Parameters:
    ///   - key: the adapter's name for the activity.
    ///   - title: its title, used when it begins.
    ///   - unit: what is counted (`bytes` for byte counts), used when it begins.
    ///   - completed: the absolute amount done, when known.
    ///   - total: the amount of work, when known (never made indeterminate again).
    ///   - message: a line of detail.
    ///   - parentKey: the open activity it nests under when it begins (an ansible task under its
    ///     play); otherwise it nests under ``parent``.
    public mutating func update(
        _ key: String, title: String, unit: String? = nil, completed: Double? = nil, total: Double? = nil,
        message: String? = nil, under parentKey: String? = nil
    ) {
        let completed = completed.map(Self.clamped)
        let total = total.map(Self.clamped)
        guard let index = open.firstIndex(where: { $0.key == key }) else {
            guard open.count < Self.maxOpen else { return }
            counter += 1
            let id = ActivityID(unchecked: "\(idPrefix).\(counter)")
            let nestedUnder = parentKey.flatMap { parentKey in open.first { $0.key == parentKey }?.id }
            let begin = ActivityEvent.Begin(
                id: id, title: title, parent: nestedUnder ?? parent, total: total, completed: completed ?? 0,
                unit: unit, message: message)
            outputs.append(.event(.begin(begin)))
            open.append(
                Entry(
                    key: key, id: id, parent: nestedUnder, completed: completed ?? 0, total: total, message: message,
                    sent: (completed ?? 0, total, message)))
            return
        }
        if let completed { open[index].completed = completed }
        if let total { open[index].total = total }
        if let message { open[index].message = message }
    }

    /// Notes that the tool printed its own completion of `key`: it ends as a success at the end
    /// of the input, whatever the exit status.
    public mutating func markComplete(_ key: String) {
        guard let index = open.firstIndex(where: { $0.key == key }) else { return }
        open[index].completionSeen = true
    }

    /// Notes that the tool's output ended as it does when the tool is done, though it would end
    /// the same if the tool were stopped (pv, tar and dpkg print no completion of their own): the
    /// activity ends as a success at the end of the input unless the exit status says the tool
    /// failed or was killed.
    public mutating func markProbablyComplete(_ key: String) {
        guard let index = open.firstIndex(where: { $0.key == key }) else { return }
        open[index].probablyComplete = true
    }

    /// Notes that the tool's count of `key` may stop short of its total though the tool finished
    /// (apt's last `pmstatus` is often 80 %): when the exit status says it succeeded, the
    /// activity ends at its total rather than where the count stopped.
    public mutating func markReachesTotalOnSuccess(_ key: String) {
        guard let index = open.firstIndex(where: { $0.key == key }) else { return }
        open[index].reachesTotalOnSuccess = true
    }

    /// Ends the activity `key` as a success now.
    public mutating func succeed(_ key: String) {
        guard let index = open.firstIndex(where: { $0.key == key }) else { return }
        end(at: index, status: .success, error: nil)
    }

    /// Ends the activity `key` (every open one when `nil`) as a failure with the tool's message.
    /// With nothing open, an activity titled with the tool's name begins and fails, so that the
    /// error is never lost.
    public mutating func fail(_ key: String?, error: String) {
        if failureMessage == nil { failureMessage = error }
        defer { failureReported = true }
        if let key {
            guard let index = open.firstIndex(where: { $0.key == key }) else { return }
            end(at: index, status: .failure, error: error)
            return
        }
        if open.isEmpty {
            // Later errors (git's second `fatal:` line) add nothing to the first one's failure.
            guard !failureReported else { return }
            update("\u{0}error", title: toolName)
        }
        while !open.isEmpty { end(at: open.count - 1, status: .failure, error: error) }
    }

    /// Remembers the tool's error for the command's own failure without ending anything: the
    /// exit status decides (tar and wget go on after some errors).
    public mutating func noteError(_ error: String) {
        if failureMessage == nil { failureMessage = error }
    }

    /// A line for the person watching, attached to the activity `key` when it is open.
    public mutating func log(_ message: String, level: ActivityEvent.Level = .info, key: String? = nil) {
        let id = key.flatMap { key in open.first { $0.key == key }?.id }
        outputs.append(.event(.log(.init(message: message, id: id, level: level))))
    }

    mutating func passthrough(_ bytes: ArraySlice<UInt8>, _ stream: AdapterStream) {
        guard !bytes.isEmpty, !dropsPassthrough else { return }
        if case .passthrough(var previous, let last) = outputs.last, last == stream {
            outputs.removeLast()
            previous.append(contentsOf: bytes)
            outputs.append(.passthrough(previous, stream))
        } else {
            outputs.append(.passthrough(Array(bytes), stream))
        }
    }

    /// Sends what changed since the last progress of each open activity.
    mutating func flush() {
        for index in open.indices {
            let entry = open[index]
            var progress = ActivityEvent.Progress(id: entry.id)
            if entry.completed != entry.sent.completed { progress.completed = entry.completed }
            if entry.total != entry.sent.total, let total = entry.total { progress.total = .value(total) }
            if entry.message != entry.sent.message { progress.message = entry.message }
            guard progress.completed != nil || progress.total != nil || progress.message != nil else { continue }
            open[index].sent = (entry.completed, entry.total, entry.message)
            outputs.append(.event(.progress(progress)))
        }
    }

    /// Ends every open activity: a failure after an error, a success when the tool printed its
    /// completion or `exitStatus` is 0, a failure for another exit status, and without one a
    /// success when the output ended as the tool's does when it is done
    /// (``markProbablyComplete(_:)``) or the known total was reached. `signal` names the signal that killed the
    /// tool (`SIGINT`), when it was killed: its failure says so rather than the status 128 + N.
    mutating func finish(exitStatus: Int32?, signal: String? = nil) {
        while !open.isEmpty {
            // Oldest first, but children before their parent.
            var index = 0
            while let child = open.firstIndex(where: { $0.parent == open[index].id }) { index = child }
            if index != 0 { open.insert(open.remove(at: index), at: 0) }
            let entry = open[0]
            if entry.completionSeen || exitStatus == 0 {
                if exitStatus == 0, entry.reachesTotalOnSuccess, let total = entry.total {
                    open[0].completed = max(entry.completed, total)
                }
                end(at: 0, status: .success, error: nil)
            } else if let signal {
                end(at: 0, status: .failure, error: failureMessage ?? "\(toolName) killed by \(signal)")
            } else if let exitStatus {
                end(at: 0, status: .failure, error: failureMessage ?? "\(toolName) exited with status \(exitStatus)")
            } else if entry.probablyComplete {
                end(at: 0, status: .success, error: nil)
            } else if let total = entry.total, entry.completed >= total {
                end(at: 0, status: .success, error: nil)
            } else {
                end(
                    at: 0, status: .failure,
                    error: failureMessage ?? "the output of \(toolName) ended before it finished")
            }
        }
    }

    mutating func takeOutputs() -> [AdapterOutput] {
        defer { outputs.removeAll(keepingCapacity: true) }
        return outputs
    }

    private mutating func end(at index: Int, status: ActivityEvent.Status, error: String?) {
        let id = open[index].id
        // Children end before their parent, as the protocol asks, with the parent's outcome.
        while let child = open.lastIndex(where: { $0.parent == id }) {
            end(at: child, status: status, error: status == .success ? nil : error)
        }
        let entry = open.remove(at: open.firstIndex { $0.id == id }!)
        var end = ActivityEvent.End(id: entry.id, status: status, error: error)
        if entry.completed != entry.sent.completed { end.completed = entry.completed }
        if entry.total != entry.sent.total, let total = entry.total { end.total = .value(total) }
        if entry.message != entry.sent.message { end.message = entry.message }
        outputs.append(.event(.end(end)))
    }

    /// Counts on the wire are finite, from 0 to 2^53.
    private static func clamped(_ value: Double) -> Double {
        value.isFinite ? min(max(value, 0), WireLimits.maxCount) : 0
    }
}
