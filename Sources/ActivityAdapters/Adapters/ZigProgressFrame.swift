/// One frame of Zig's `ZIG_PROGRESS` protocol: the whole progress tree of a `zig` process.
///
/// Read from `lib/std/Progress.zig` (`serialize`, `writeIpc`, `Node.Storage`) of ziglang/zig
/// at commit 00f26cb0a4d60e908719309f4daa6598316ef74e: a frame is one byte N, then N storages
/// of 48 bytes (completed count, estimated total count, both u32 little-endian; a name of
/// 40 bytes, ended by a NUL when shorter), then N parent bytes (255 for a root, else the index
/// of the parent in this frame). Node 0 is the root. A parent that nests a child process's tree
/// (a `zig build` step running the compiler) mounts it into its own frame, so one tree arrives.
public struct ZigProgressFrame: Hashable, Sendable {
    public struct Node: Hashable, Sendable {
        public var name: String
        public var completed: UInt32
        /// 0 when unknown.
        public var total: UInt32
        /// The index of the parent node in ``ZigProgressFrame/nodes``; `nil` for a root.
        public var parent: Int?
    }

    public var nodes: [Node]

    /// Zig's node storage holds 83 nodes, and the serialized tree never has more.
    public static let maxNodes = 83
    static let storageBytes = 48
    static let nameBytes = 40
    /// The largest frame Zig writes: it fits a pipe's buffer, which Zig asserts.
    public static let maxBytes = 1 + maxNodes * (storageBytes + 1)

    /// The number of bytes a frame whose first byte is `count` takes.
    static func length(nodes count: Int) -> Int { 1 + count * (storageBytes + 1) }

    /// Decodes one whole frame (its length as ``length(nodes:)`` says), or `nil` when it cannot
    /// be one Zig wrote: no nodes, more than ``maxNodes``, a node 0 that is not a root, or a
    /// parent outside the frame. A node whose parents never reach a root is left out.
    static func decode(_ bytes: ArraySlice<UInt8>) -> ZigProgressFrame? {
        guard let first = bytes.first else { return nil }
        let count = Int(first)
        guard count > 0, count <= maxNodes, bytes.count == length(nodes: count) else { return nil }
        let storageStart = bytes.startIndex + 1
        let parentStart = storageStart + count * storageBytes
        // Cheap checks first: garbage is skipped a byte at a time.
        guard bytes[parentStart] == 255 else { return nil }
        var parents: [Int?] = []
        parents.reserveCapacity(count)
        for index in 0..<count {
            let byte = bytes[parentStart + index]
            if byte == 255 {
                parents.append(nil)
            } else if Int(byte) < count, Int(byte) != index {
                parents.append(Int(byte))
            } else {
                return nil
            }
        }
        guard parents[0] == nil else { return nil }
        var nodes: [Node] = []
        nodes.reserveCapacity(count)
        for index in 0..<count {
            let start = storageStart + index * storageBytes
            let nameStart = start + 8
            let nameBytes = bytes[nameStart..<(nameStart + Self.nameBytes)]
            let nameEnd = nameBytes.firstIndex(of: 0) ?? nameBytes.endIndex
            nodes.append(
                Node(
                    name: Self.name(bytes[nameStart..<nameEnd]), completed: Self.word(bytes, at: start),
                    total: Self.word(bytes, at: start + 4), parent: parents[index]))
        }
        // A loop of parents (never written by Zig) reaches no root: such nodes are dropped, and
        // the indices of the others renumbered.
        var reachesRoot = [Bool](repeating: false, count: count)
        for index in 0..<count {
            var current: Int? = index
            var steps = 0
            while let node = current, steps <= count {
                if reachesRoot[node] { break }
                current = parents[node]
                steps += 1
            }
            reachesRoot[index] = steps <= count
        }
        guard reachesRoot.contains(false) else { return ZigProgressFrame(nodes: nodes) }
        var renumbered = [Int?](repeating: nil, count: count)
        var kept: [Node] = []
        for index in 0..<count where reachesRoot[index] {
            renumbered[index] = kept.count
            kept.append(nodes[index])
        }
        for index in kept.indices { kept[index].parent = kept[index].parent.flatMap { renumbered[$0] } }
        return ZigProgressFrame(nodes: kept)
    }

    private static func word(_ bytes: ArraySlice<UInt8>, at start: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { value, offset in value | UInt32(bytes[start + offset]) << (8 * offset) }
    }

    /// The name as text: invalid UTF-8 and control characters (a name cut inside a character,
    /// garbage) become U+FFFD.
    private static func name(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        return String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.properties.generalCategory == .control ? "\u{FFFD}" : $0 }))
    }
}

/// Cuts Zig's `ZIG_PROGRESS` byte stream, in chunks of any size, into frames.
///
/// Each frame says its own length in its first byte. What cannot be a frame (garbage, a frame
/// that a writer cut short and filled up with other bytes, as Zig does after a partial write)
/// is skipped a byte at a time until a frame decodes again. At most one frame's bytes
/// (``ZigProgressFrame/maxBytes``) are held.
public struct ZigProgressDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// The bytes held for a frame not yet whole: never more than ``ZigProgressFrame/maxBytes``.
    public var heldBytes: Int { pending.count }

    /// The stream has ended: frames that start inside held bytes which a garbage header claimed
    /// (and which later frames would have shown to be none), in order.
    public mutating func finish() -> [ZigProgressFrame] {
        var frames: [ZigProgressFrame] = []
        while !pending.isEmpty {
            let rest = pending.dropFirst()
            pending.removeAll()
            frames += feed(Array(rest))
        }
        return frames
    }

    /// The frames the bytes complete, in order.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [ZigProgressFrame] {
        var frames: [ZigProgressFrame] = []
        var input = bytes[...]
        while !input.isEmpty {
            // Never more than a frame's bytes are copied in: the held bytes stay bounded.
            if pending.isEmpty {
                let count = Int(input.first!)
                guard count > 0, count <= ZigProgressFrame.maxNodes else {
                    input = input.dropFirst()
                    continue
                }
                let wanted = ZigProgressFrame.length(nodes: count)
                guard input.count >= wanted else {
                    pending.append(contentsOf: input)
                    input = input.dropFirst(input.count)
                    continue
                }
                let end = input.index(input.startIndex, offsetBy: wanted)
                if let frame = ZigProgressFrame.decode(ArraySlice(input[..<end])) {
                    frames.append(frame)
                    input = input[end...]
                } else {
                    input = input.dropFirst()
                }
                continue
            }
            let wanted = ZigProgressFrame.length(nodes: Int(pending[0]))
            let taken = input.prefix(wanted - pending.count)
            pending.append(contentsOf: taken)
            input = input.dropFirst(taken.count)
            guard pending.count == wanted else { continue }
            if let frame = ZigProgressFrame.decode(pending[...]) {
                frames.append(frame)
                pending.removeAll(keepingCapacity: true)
            } else {
                // Not a frame: the bytes after its first one may start the next.
                let rest = pending.dropFirst()
                pending.removeAll(keepingCapacity: true)
                frames += feed(Array(rest))
            }
        }
        return frames
    }
}
