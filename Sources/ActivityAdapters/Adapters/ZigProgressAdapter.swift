import ActivityWire

/// Zig's `ZIG_PROGRESS` stream as activities: each node of the tree one activity, nested as Zig
/// nests them, its name as the title, its completed count of its estimated total as count and
/// total (``ZigProgressFrame``).
///
/// A frame is the whole tree: a node that is in the last frame but not in this one has ended
/// (Zig's `Node.end` removes it), and ends as a success at its total. Nodes carry no identity from frame to
/// frame, so a node is known by its name and its parents' names (with its place among siblings of
/// the same name): a node that renames itself ends, and one of the new name begins. A root without
/// a name (`zig build`'s) is not an activity: its children nest under ``AdaptedActivities/parent``.
/// At the end, open nodes end as a success at their total when the command succeeded, as a failure
/// when it failed.
///
/// The stream is binary, not lines: it is fed through ``feed(_:)``, not an ``AdapterPipeline``.
public struct ZigProgressAdapter {
    private var decoder = ZigProgressDecoder()
    private var activities: AdaptedActivities
    private var finished = false

    /// - Parameters:
    ///   - toolName: the title of a node without a name, and of an activity that carries an error.
    ///   - parent: the activity the nodes nest under (`activity run`'s command).
    ///   - idPrefix: makes the activities' ids unique: `PREFIX.1`, `PREFIX.2`… (random by default).
    public init(toolName: String = "zig", parent: ActivityID? = nil, idPrefix: String? = nil) {
        activities = AdaptedActivities(
            toolName: toolName, parent: parent, idPrefix: idPrefix ?? ActivityID.randomPrefix())
    }

    /// Always `nil`: the protocol carries no errors (Zig prints them on standard error).
    public var failureMessage: String? { activities.failureMessage }

    /// Reads a chunk of the stream; returns the events of the frames it completes.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [AdapterOutput] {
        guard !finished else { return [] }
        for frame in decoder.feed(bytes) { apply(frame) }
        activities.flush()
        return activities.takeOutputs()
    }

    /// Ends the stream: open nodes end by `exitStatus` (see ``AdaptedActivities``).
    public mutating func finish(exitStatus: Int32?, signal: String? = nil) -> [AdapterOutput] {
        guard !finished else { return [] }
        finished = true
        for frame in decoder.finish() { apply(frame) }
        activities.flush()
        activities.finish(exitStatus: exitStatus, signal: signal)
        return activities.takeOutputs()
    }

    private mutating func apply(_ frame: ZigProgressFrame) {
        let keys = Self.keys(frame)
        let present = Set(keys.compactMap { $0 })
        // Ended nodes first, so that a node that took an ended one's place fits under the limit;
        // children (begun after their parents) before parents. Zig ended the node, done: its
        // count in the last frame may be one update old.
        for key in activities.openKeys.reversed() where !present.contains(key) {
            if let total = activities.total(key) { activities.update(key, title: "", completed: total) }
            activities.succeed(key)
        }
        // Parents before children: a child nests under its parent only once the parent is open.
        for index in Self.parentsFirst(frame) {
            guard let key = keys[index] else { continue }
            let node = frame.nodes[index]
            // Zig's maximum total marks a node whose count is a child process's descriptor.
            let known = node.total != 0 && node.total != UInt32.max
            let completed = node.total == UInt32.max ? nil : Double(node.completed)
            let title = node.name.isEmpty ? activities.toolName : node.name
            let isNew = !activities.isOpen(key)
            activities.update(
                key, title: title, completed: completed, total: known ? Double(node.total) : nil,
                under: node.parent.flatMap { keys[$0] })
            if isNew { activities.markReachesTotalOnSuccess(key) }
        }
    }

    /// Each node's key (its names from the root down), `nil` for a root without a name.
    private static func keys(_ frame: ZigProgressFrame) -> [String?] {
        var keys = [String?](repeating: nil, count: frame.nodes.count)
        var seen: [String: Int] = [:]
        for index in parentsFirst(frame) {
            let node = frame.nodes[index]
            guard let parent = node.parent else {
                if node.name.isEmpty { continue }
                keys[index] = Self.key(under: "", node.name, &seen)
                continue
            }
            keys[index] = Self.key(under: keys[parent] ?? "", node.name, &seen)
        }
        return keys
    }

    /// `parent/name#n`, n counting siblings of the same name in frame order.
    private static func key(under parent: String, _ name: String, _ seen: inout [String: Int]) -> String {
        let base = parent + "\u{1F}" + name
        let occurrence = seen[base, default: 0]
        seen[base] = occurrence + 1
        return base + "#\(occurrence)"
    }

    /// The nodes' indices with every parent before its children (a decoded frame has no loops),
    /// otherwise in frame order.
    private static func parentsFirst(_ frame: ZigProgressFrame) -> [Int] {
        var children = [[Int]](repeating: [], count: frame.nodes.count)
        var order: [Int] = []
        order.reserveCapacity(frame.nodes.count)
        for (index, node) in frame.nodes.enumerated() {
            if let parent = node.parent { children[parent].append(index) } else { order.append(index) }
        }
        var next = 0
        while next < order.count {
            order += children[order[next]]
            next += 1
        }
        return order
    }

    /// What reads the lines of a command whose progress comes as Zig's frames: none of them are.
    public struct NoLines: ToolAdapter {
        public init() {}

        public mutating func read(_ line: AdapterLine, _ activities: inout AdaptedActivities) -> Bool { false }
    }
}
