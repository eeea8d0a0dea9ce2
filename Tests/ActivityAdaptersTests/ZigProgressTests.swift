import ActivityAdapters
import ActivityWire
import Foundation
import TestSupport
import Testing

/// Zig's `ZIG_PROGRESS` frames (``ZigProgressDecoder``, ``ZigProgressAdapter``), written as
/// `lib/std/Progress.zig` serializes them (`Support/ZigFrames.swift`, `Fixtures/zig`).
@Suite("Zig's ZIG_PROGRESS frames")
struct ZigProgressTests {
    typealias Node = ZigFrames.Node

    static var zigBuild: [UInt8] { ZigFrames.zigBuild.flatMap(ZigFrames.frame) }

    /// The stream through a ``ZigProgressAdapter`` in chunks whose sizes `chunks` gives.
    static func adapt(
        _ bytes: [UInt8], exitStatus: Int32? = 0, parent: ActivityID? = nil,
        chunks: (inout SplitMix64) -> Int = { _ in 1 << 16 }, seed: UInt64 = 1
    ) -> Adapted {
        var adapter = ZigProgressAdapter(parent: parent, idPrefix: "t")
        var random = SplitMix64(seed: seed)
        var outputs: [AdapterOutput] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + max(1, chunks(&random)))
            outputs += adapter.feed(bytes[offset..<end])
            offset = end
        }
        outputs += adapter.finish(exitStatus: exitStatus)
        return Adapted(outputs: outputs, failureMessage: adapter.failureMessage)
    }

    static let zigBuildActivities = [
        "steps success 2.0/2.0 ", "compile exe hello Debug native success 0.0/? ",
        "Semantic Analysis success 1523.0/? ", "Code Generation success 200.0/200.0 ", "install hello success 0.0/? ",
    ]

    @Test("the tests' writer makes the fixture's bytes, which make-frames.py wrote from Zig's source")
    func writerMatchesFixture() throws {
        #expect(Self.zigBuild == (try Fixture.bytes("zig/zig-build.bin")))
    }

    @Test("a frame decodes to its nodes: names, counts, totals and parents")
    func decodesFrame() {
        var decoder = ZigProgressDecoder()
        let frames = decoder.feed(ZigFrames.frame(ZigFrames.zigBuild[2]))
        #expect(frames.count == 1)
        let nodes = frames.first?.nodes ?? []
        #expect(
            nodes.map(\.name) == [
                "", "steps", "compile exe hello Debug native", "Semantic Analysis", "Code Generation",
            ])
        #expect(nodes.map(\.parent) == [nil, 0, 1, 2, 2])
        #expect(nodes.map(\.completed) == [0, 0, 0, 1523, 40])
        #expect(nodes.map(\.total) == [0, 2, 0, 0, 200])
    }

    @Test("zig build's tree becomes nested activities; ended nodes end at their total")
    func zigBuildActivities() throws {
        let parent = ActivityID(unchecked: "cmd")
        let adapted = Self.adapt(try Fixture.bytes("zig/zig-build.bin"), parent: parent)
        #expect(adapted.isWellFormed)
        #expect(adapted.activities.map(\.description) == Self.zigBuildActivities)
        let begins = adapted.events.compactMap { event -> ActivityEvent.Begin? in
            if case .begin(let begin) = event { return begin }
            return nil
        }
        let ids = Dictionary(uniqueKeysWithValues: begins.map { ($0.title, $0.id) })
        #expect(
            begins.map(\.parent) == [
                parent, ids["steps"], ids["compile exe hello Debug native"],
                ids["compile exe hello Debug native"], ids["steps"],
            ])
    }

    @Test("the compile step's nodes end when it leaves the tree, before the stream ends")
    func nodeLeavingEnds() {
        var adapter = ZigProgressAdapter(idPrefix: "t")
        let frames = ZigFrames.zigBuild.map(ZigFrames.frame)
        _ = adapter.feed(frames[0] + frames[1] + frames[2])
        let ended = Adapted(outputs: adapter.feed(frames[3])).events.compactMap { event -> ActivityEvent.End? in
            if case .end(let end) = event { return end }
            return nil
        }
        #expect(ended.count == 3)
        #expect(ended.allSatisfy { $0.status == .success })
    }

    @Test("a failed command fails the open nodes where they stopped")
    func failedCommand() {
        let adapted = Self.adapt(Self.zigBuild, exitStatus: 1)
        #expect(adapted.isWellFormed)
        #expect(
            adapted.activities.map(\.description).filter { $0.contains("failure") } == [
                "steps failure 1.0/2.0 zig exited with status 1",
                "install hello failure 0.0/? zig exited with status 1",
            ])
    }

    @Test("the same activities whatever the chunks: byte by byte and at random", arguments: [1, 2, 3, 4])
    func anyChunking(seed: UInt64) {
        let whole = Self.adapt(Self.zigBuild)
        #expect(Self.adapt(Self.zigBuild, chunks: { _ in 1 }).activities == whole.activities)
        let random = Self.adapt(Self.zigBuild, chunks: { Int($0.next() % 97) }, seed: seed)
        #expect(random.activities == whole.activities)
        #expect(random.isWellFormed)
    }

    @Test("a stream cut anywhere ends well-formed, with the nodes of its whole frames")
    func truncated() {
        let bytes = Self.zigBuild
        for length in 0...bytes.count {
            let adapted = Self.adapt(Array(bytes[..<length]), exitStatus: nil)
            #expect(adapted.isWellFormed)
            #expect(adapted.activities.count <= Self.zigBuildActivities.count)
        }
    }

    @Test("garbage before, between and after frames: nothing crashes, the frames are still read")
    func garbage() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<50 {
            let noise = (0..<Int(random.next() % 600)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let adapted = Self.adapt(noise, exitStatus: 1)
            #expect(adapted.isWellFormed)
        }
        // A header of too many nodes, a length that never completes: skipped, not waited for.
        let noise: [UInt8] = [0xAA, 0xFF, 0x00, 0x54, 0x07, 0x03, 0x01]
        let frames = ZigFrames.zigBuild.map(ZigFrames.frame)
        let adapted = Self.adapt(noise + frames[0] + frames[1] + frames[2] + noise + frames[3])
        #expect(adapted.activities.map(\.description) == Self.zigBuildActivities)
    }

    @Test("however much garbage comes, at most one frame's bytes are held")
    func boundedMemory() {
        var random = SplitMix64(seed: 11)
        var decoder = ZigProgressDecoder()
        var most = 0
        for _ in 0..<2000 {
            let chunk = (0..<Int(random.next() % 700)).map { _ in UInt8(truncatingIfNeeded: random.next() % 84) }
            _ = decoder.feed(chunk)
            most = max(most, decoder.heldBytes)
        }
        #expect(most <= ZigProgressFrame.maxBytes)
        _ = decoder.finish()
        #expect(decoder.heldBytes == 0)
    }

    @Test("a frame of more nodes than Zig keeps, or with a parent outside it, is not one")
    func oversizedAndInvalid() {
        let many = [Node(name: "")] + (1...83).map { Node(name: "n\($0)", parent: 0) }
        var decoder = ZigProgressDecoder()
        #expect(decoder.feed(ZigFrames.frame(many)).isEmpty)
        #expect(decoder.feed(ZigFrames.frame(Array(many.prefix(83)))).map(\.nodes.count) == [83])
        #expect(decoder.feed(ZigFrames.frame([Node(name: "root"), Node(name: "x", parent: 9)])).isEmpty)
        #expect(decoder.feed(ZigFrames.frame([Node(name: "x", parent: 0)])).isEmpty)
        // At most AdaptedActivities.maxOpen activities are open at once.
        let adapted = Self.adapt(ZigFrames.frame(Array(many.prefix(83))))
        #expect(adapted.activities.count == AdaptedActivities.maxOpen)
        #expect(adapted.isWellFormed)
    }

    @Test("nodes whose parents loop are left out; a name of 40 bytes has no NUL; controls are replaced")
    func loopsAndNames() {
        let nodes = [
            Node(name: "root"), Node(name: "a", parent: 2), Node(name: "b", parent: 1),
            Node(name: String(repeating: "x", count: 45), parent: 0), Node(name: "bell\u{7}", parent: 0),
        ]
        var decoder = ZigProgressDecoder()
        let frame = decoder.feed(ZigFrames.frame(nodes)).first
        #expect(frame?.nodes.map(\.name) == ["root", String(repeating: "x", count: 40), "bell\u{FFFD}"])
        #expect(frame?.nodes.map(\.parent) == [nil, 0, 0])
    }
}
