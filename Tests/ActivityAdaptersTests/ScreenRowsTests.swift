import ActivityAdapters
import ActivityWire
import Testing

/// Adapters reading a command's screen rows (`activity run` on a terminal), replayed from
/// captures of the real programs on a pseudo-terminal of 100×30.
@Suite("Adapters: screen rows")
struct ScreenRowsTests {
    @Test("probe")
    func probe() throws {
        let bytes = try Fixture.bytes("tqdm/tqdm-nested-pty-C.txt")
        let text = String(decoding: bytes, as: UTF8.self)
        let last = String(text.split(separator: "\r").dropLast().last!)
        print("LAST", last.debugDescription)
        print("PIPE", Fixture.adapt(Array((last + "\n").utf8), with: "bars").tree)
        print("PIPE2", Fixture.adapt(Array((last + "\n").utf8), with: "tqdm").tree)
    }

    @Test("dump", arguments: ["tqdm/tqdm-nested-pty-C.txt", "tqdm/tqdm-wrap-pty-C.txt", "rich/rich-two-pty-C.txt"])
    func dump(_ file: String) throws {
        for chunk in [nil, 1, 7, 333, 4096] as [Int?] {
            let adapted = ScreenReplay.adapt(try Fixture.bytes(file), with: "bars", chunkSize: chunk)
            print(file, chunk, adapted.tree, adapted.isWellFormed)
        }
    }
}

extension Adapted {
    /// Each activity as it ended, indented under its parent.
    var tree: [String] {
        var parents: [ActivityID: ActivityID] = [:]
        for event in events { if case .begin(let begin) = event, let parent = begin.parent { parents[begin.id] = parent } }
        var ids: [ActivityID] = []
        for event in events { if case .begin(let begin) = event { ids.append(begin.id) } }
        return zip(ids, activities).map { id, activity in
            var depth = 0
            var current = id
            while let parent = parents[current] { depth += 1; current = parent }
            return String(repeating: "  ", count: depth) + activity.description
        }
    }
}
