/// Writes frames of Zig's `ZIG_PROGRESS` protocol as `lib/std/Progress.zig` (ziglang/zig
/// 00f26cb0a4d6) serializes them: one byte N; N storages of a u32 completed count and a u32
/// estimated total (little-endian) and a name of 40 bytes (NUL-padded); N parent bytes (255 for
/// the root). Made from the source: no Zig can be installed here.
enum ZigFrames {
    struct Node {
        var name: String
        var completed: UInt32 = 0
        var total: UInt32 = 0
        /// The parent's index in the frame; `nil` for the root.
        var parent: Int?
    }

    static func frame(_ nodes: [Node]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(truncatingIfNeeded: nodes.count)]
        for node in nodes {
            bytes += littleEndian(node.completed) + littleEndian(node.total)
            // Zig cuts a name at 40 bytes, inside a character if it must.
            let name = Array(node.name.utf8.prefix(40))
            bytes += name + [UInt8](repeating: 0, count: 40 - name.count)
        }
        bytes += nodes.map { node in node.parent.map { UInt8(truncatingIfNeeded: $0) } ?? 255 }
        return bytes
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// A `zig build` of one executable, frame by frame as its parent sees them: the build
    /// runner's nameless root, its `steps` node, the compile step with the compiler's own tree
    /// mounted under it, the install step after it ended.
    static let zigBuild: [[Node]] = [
        [Node(name: ""), Node(name: "steps", total: 2, parent: 0)],
        [
            Node(name: ""), Node(name: "steps", total: 2, parent: 0),
            Node(name: "compile exe hello Debug native", parent: 1),
        ],
        [
            Node(name: ""), Node(name: "steps", total: 2, parent: 0),
            Node(name: "compile exe hello Debug native", parent: 1),
            Node(name: "Semantic Analysis", completed: 1523, parent: 2),
            Node(name: "Code Generation", completed: 40, total: 200, parent: 2),
        ],
        [
            Node(name: ""), Node(name: "steps", completed: 1, total: 2, parent: 0),
            Node(name: "install hello", parent: 1),
        ],
    ]
}
