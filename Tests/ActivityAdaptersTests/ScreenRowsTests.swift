import ActivityAdapters
import ActivityWire
import TestSupport
import Testing

/// Adapters reading a command's screen rows (`activity run` on a terminal), replayed from
/// captures of the real programs on a pseudo-terminal of 100×30 (see Fixtures/README.md).
@Suite("Adapters: screen rows")
struct ScreenRowsTests {
    @Test("nested tqdm bars are rows: the inner bar nests under the outer one, a run each, with its counts")
    func tqdmNested() throws {
        let adapted = ScreenReplay.adapt(try Fixture.bytes("tqdm/tqdm-nested-pty-C.txt"), with: "bars")
        #expect(
            adapted.tree == [
                "outer success 3.0/3.0 ", "  inner success 5.0/5.0 ", "  inner success 5.0/5.0 ",
                "  inner success 5.0/5.0 ",
            ])
        #expect(adapted.isWellFormed)
    }

    @Test(
        "nested tqdm bars at tqdm's own pace end as they close, though the inner bar's closing count is never drawn",
        arguments: [nil, 4096])
    func tqdmNestedDefaultPace(_ size: Int?) throws {
        // The inner bar (`leave=False`) is cleared at 49 of 50: tqdm draws a bar at most ten
        // times a second and does not draw one that closes without being left. The outer bar
        // reaching its total ends it; the outer's row, left at its total, ends the outer. A
        // command that fails after that changes neither.
        let adapted = ScreenReplay.adapt(
            try Fixture.bytes("tqdm/tqdm-nested-default-pty-C.txt"), with: "bars", chunkSize: size, exitStatus: 1)
        let expected = ["outer success 3.0/3.0 "] + Array(repeating: "  inner success 50.0/50.0 ", count: 3)
        #expect(adapted.tree == expected)
        #expect(adapted.endedBeforeInputEnded.count == 4, "\(adapted.endedBeforeInputEnded)")
        #expect(adapted.isWellFormed)
    }

    @Test(
        "a bar at the next position still drawn when the one above reaches its total goes on: it is not an inner loop")
    func tqdmBarsSideBySide() {
        // Two bars drawn as tqdm draws `position=0` and `position=1`, the first done first.
        let bar = { (name: String, count: Int, total: Int) in
            "\(name): \(count * 100 / total)%|\(String(repeating: "█", count: count))| \(count)/\(total) [00:01<00:00,  4.00it/s]"
        }
        let frame = { (first: Int, second: Int) in
            "\r" + bar("first", first, 2) + "\n\r" + bar("second", second, 4) + "\u{1B}[A"
        }
        let chunks = [frame(0, 0), frame(1, 1), frame(2, 1), frame(2, 2), frame(2, 4), "\n\n"].map { Array($0.utf8) }
        let adapted = ScreenReplay.adapt(chunks: chunks, with: "bars")
        #expect(adapted.tree == ["first success 2.0/2.0 ", "  second success 4.0/4.0 "], "\(adapted.tree)")
        #expect(adapted.isWellFormed)
    }

    /// tqdm's frames of a bar, drawn as its default format draws them: `\r`, the bar, and the
    /// cursor-up moves back from its position.
    static func tqdmFrame(_ name: String, _ count: Int, of total: Int, position: Int = 0) -> String {
        let filled = count * 10 / total
        let bar = String(repeating: "█", count: filled) + String(repeating: " ", count: 10 - filled)
        let percent = String(count * 100 / total)
        let padded = String(repeating: " ", count: 3 - percent.count) + percent
        return String(repeating: "\n", count: position)
            + "\r\(name): \(padded)%|\(bar)| \(count)/\(total) [00:01<00:00, 20.00it/s]"
            + String(repeating: "\u{1B}[A", count: position)
    }

    /// What tqdm writes over a `leave=False` bar at its close.
    static func tqdmClear(position: Int = 0) -> String {
        String(repeating: "\n", count: position) + "\r" + String(repeating: " ", count: 60)
            + (position == 0 ? "\r" : String(repeating: "\u{1B}[A", count: position))
    }

    @Test(
        "tqdm bars with leave=False one after another end as each closes, in a pipe and on a screen",
        arguments: [false, true])
    func tqdmSequentialClosed(_ onScreen: Bool) {
        let steps = ["map", "filter", "tokenize"].flatMap { name in
            [0, 15, 30].map { Self.tqdmFrame(name, $0, of: 30) } + [Self.tqdmClear()]
        }
        let adapted =
            onScreen
            ? ScreenReplay.adapt(chunks: steps.map { Array($0.utf8) }, with: "bars", exitStatus: 1)
            : Fixture.adapt(Array(steps.joined().utf8), with: "tqdm", chunkSize: 7, exitStatus: 1)
        #expect(adapted.tree == ["map success 30.0/30.0 ", "filter success 30.0/30.0 ", "tokenize success 30.0/30.0 "])
        #expect(adapted.endedBeforeInputEnded.count == 3, "\(adapted.endedBeforeInputEnded)")
    }

    @Test("in a pipe, an inner bar's run cleared short of its total is not joined to the next run")
    func tqdmInnerRunClearedShort() {
        // tqdm does not draw a `leave=False` bar's closing count: a run can end shown at 19 of 20.
        let runs = [20, 19, 20].map { last in
            [0, last].map { Self.tqdmFrame("step", $0, of: 20, position: 1) }.joined() + Self.tqdmClear(position: 1)
        }
        let adapted = Fixture.adapt(Array((runs.joined() + "\n").utf8), with: "tqdm", exitStatus: 0)
        #expect(adapted.tree == Array(repeating: "step success 20.0/20.0 ", count: 3), "\(adapted.tree)")
    }

    @Test(
        "nested trange without position=: each inner run is one activity under the outer bar, though tqdm draws its close in the row above",
        arguments: [nil, 4096])
    func tqdmTrangeNested(_ size: Int?) throws {
        // tqdm puts the inner bar at position 1 with `leave=True`: at its close it draws it at
        // position 0 over the outer bar, and the outer bar goes on in the row below.
        let adapted = ScreenReplay.adapt(
            try Fixture.bytes("tqdm/tqdm-trange-nested-pty-C.txt"), with: "bars", chunkSize: size)
        #expect(adapted.tree == ["outer success 3.0/3.0 "] + Array(repeating: "  inner success 25.0/25.0 ", count: 3))
        #expect(adapted.isWellFormed)
    }

    @Test("bars side by side from threads (position=0, 1, 2): one activity each, each at its total")
    func tqdmThreads() throws {
        let adapted = ScreenReplay.adapt(try Fixture.bytes("tqdm/tqdm-threads-pty-C.txt"), with: "bars")
        let bars = adapted.tree.map { String($0.drop { $0 == " " }) }.sorted()
        #expect(bars == ["w0 success 30.0/30.0 ", "w1 success 40.0/40.0 ", "w2 success 50.0/50.0 "], "\(adapted.tree)")
        #expect(adapted.isWellFormed)
    }

    @Test("a tqdm bar redrawn narrower over what is left of its wider frame (a resize) is the same bar")
    func tqdmRedrawnNarrower() {
        let wide = "\rdyn:  30%|██████████                        | 30/100 [00:00<00:02, 33.01it/s]"
        // After the resize the terminal reflowed the wide frame; the narrower one is drawn
        // after what is left of it on the row.
        let narrow =
            "\rdyn:  32%|██████████████████████▎ | 32/100 [00:00<00:02, 33.01it/s] dyn:  33%|███ | 33/100 [00:01<00:02, 33.01it/s]"
        let done = "\rdyn: 100%|████████████| 100/100 [00:03<00:00, 33.01it/s]\r\n"
        let adapted = ScreenReplay.adapt(chunks: [wide, narrow, done].map { Array($0.utf8) }, with: "bars")
        #expect(adapted.tree == ["dyn success 100.0/100.0 "], "\(adapted.tree)")
    }

    @Test("tar's dots on a terminal are counted as they come, on the line not ended yet")
    func tarDotsAsTheyCome() throws {
        // The dots never end their line while tar runs: read only when final, they came at once.
        let adapted = ScreenReplay.adapt(try Fixture.bytes("tar/tar-dot-pty-C.txt"), with: "tar", chunkSize: 1)
        #expect(adapted.activities.map(\.description) == ["Archiving success 9.0/? "])
        #expect(adapted.activities.first.map(\.progressEvents) ?? 0 >= 8, "\(adapted.activities)")
    }

    @Test(
        "read in chunks that cut frames, nested tqdm bars stay nested and no bar is made of a half-cleared row",
        arguments: [1, 7, 333, 4096])
    func tqdmNestedChunks(_ size: Int) throws {
        let adapted = ScreenReplay.adapt(try Fixture.bytes("tqdm/tqdm-nested-pty-C.txt"), with: "bars", chunkSize: size)
        #expect(adapted.isWellFormed)
        #expect(adapted.tree.first == "outer success 3.0/3.0 ")
        #expect(adapted.tree.dropFirst().allSatisfy { $0.hasPrefix("  inner success ") }, "\(adapted.tree)")
    }

    @Test("frames drawn within one read are each read: every run of the inner bar is seen to finish")
    func framesWithinOneRead() throws {
        let bytes = try Fixture.bytes("tqdm/tqdm-nested-pty-C.txt")
        let adapted = ScreenReplay.adapt(bytes, with: "bars", chunkSize: bytes.count)
        #expect(
            adapted.tree == [
                "outer success 3.0/3.0 ", "  inner success 5.0/5.0 ", "  inner success 5.0/5.0 ",
                "  inner success 5.0/5.0 ",
            ])
        #expect(adapted.isWellFormed)
    }

    @Test("a bar that reached its total and was replaced in place within one read ends as a success")
    func barReplacedWithinOneRead() {
        let bar = { (name: String, count: Int) in
            let done = String(repeating: "█", count: count * 2)
            let rest = String(repeating: " ", count: 10 - count * 2)
            return "\r\(name): \(count * 20)%|\(done)\(rest)| \(count)/5 [00:01<00:00,  4.00it/s]"
        }
        let first = (0...5).map { bar("first", $0) }.joined()
        let second = (0...2).map { bar("second", $0) }.joined()
        let adapted = ScreenReplay.adapt(chunks: [Array((first + second).utf8)], with: "bars")
        #expect(adapted.tree.first == "first success 5.0/5.0 ", "\(adapted.tree)")
        #expect(adapted.tree.count == 2 && adapted.isWellFormed)
    }

    @Test("a tqdm bar wider than the screen wraps: its two rows are one line, one activity", arguments: [nil, 1, 333])
    func tqdmWrapped(_ size: Int?) throws {
        let adapted = ScreenReplay.adapt(try Fixture.bytes("tqdm/tqdm-wrap-pty-C.txt"), with: "bars", chunkSize: size)
        #expect(adapted.tree == ["a long description of the work success 20.0/20.0 "])
        if size == nil {
            #expect(adapted.activities.first?.progressEvents ?? 0 >= 5, "read as it is redrawn, not only at the end")
        }
    }

    @Test(
        "rich's two tasks are two rows of one frame, with a line printed between frames", arguments: [nil, 1, 7, 333])
    func richTwo(_ size: Int?) throws {
        let adapted = ScreenReplay.adapt(try Fixture.bytes("rich/rich-two-pty-C.txt"), with: "bars", chunkSize: size)
        #expect(adapted.tree == ["Downloading success 100.0/100.0 ", "Extracting success 100.0/100.0 "])
        #expect(adapted.isWellFormed)
    }

    @Test("read from a screen, a rich task ends as a success when its row shows it at its total, while the other runs")
    func richTaskEndsAtItsTotal() throws {
        // rich's frames of two tasks (coloured, each bar is 40 cells of ━), and its redraw.
        let frame = { (first: Int, second: Int) in
            let bar = String(repeating: "━", count: 40)
            let percent = { (value: Int) in String(repeating: " ", count: 3 - String(value).count) + "\(value)%" }
            return "Downloading \u{1B}[32m\(bar)\u{1B}[0m \(percent(first)) 0:00:01\r\n"
                + "Extracting  \u{1B}[32m\(bar)\u{1B}[0m \(percent(second)) 0:00:01"
        }
        let redraw = "\r\u{1B}[2K\u{1B}[1A\u{1B}[2K"
        let chunks = [frame(50, 20), redraw + frame(100, 40), redraw + frame(100, 60)].map { Array($0.utf8) }
        let adapted = ScreenReplay.adapt(chunks: chunks, with: "bars")
        let events = adapted.events
        let firstEnd = try #require(
            events.firstIndex {
                if case .end = $0 { return true }
                return false
            })
        let secondAt60 = try #require(
            events.firstIndex {
                if case .progress(let progress) = $0 { return progress.completed == 60 }
                return false
            })
        #expect(firstEnd < secondAt60, "the first task ended before the second one's next frame")
        #expect(adapted.tree.first == "Downloading success 100.0/100.0 ")
        #expect(adapted.tree.count == 2 && adapted.isWellFormed, "\(adapted.tree)")
    }

    /// The captures whose replay cut before each `\r` differs from the lines (Docs/adapters.md):
    /// indicatif's MultiProgress redraws with `ESC[1A \r ESC[2K ESC[1B \r ESC[2K ESC[1A`, so that
    /// cut falls inside a frame, between the erase of a row and its redraw, which indicatif's
    /// writes (a frame each) never make; read a frame a chunk, it is the same (`indicatifFrames`).
    static let differFromLines: Set<String> = ["indicatif/indicatif-multi-pty-C.txt"]

    @Test("indicatif's MultiProgress read a frame a read makes the same activities from rows as from lines")
    func indicatifFrames() throws {
        let bytes = try Fixture.bytes("indicatif/indicatif-multi-pty-C.txt")
        let redraw = Array("\u{1B}[1A\r\u{1B}[2K".utf8)
        var chunks: [[UInt8]] = []
        var start = 0
        for index in bytes.indices.dropFirst() where bytes[index...].starts(with: redraw) {
            chunks.append(Array(bytes[start..<index]))
            start = index
        }
        chunks.append(Array(bytes[start...]))
        let rows = ScreenReplay.adapt(chunks: chunks, with: "bars")
        let lines = Fixture.adapt(bytes, with: "bars")
        #expect(rows.activities.map(\.description) == lines.activities.map(\.description))
        #expect(rows.tree == ["Progress success 20.0/20.0 ", "Progress success 40.0/40.0 "])
    }

    @Test(
        "one adapter, both sources: each capture on a pseudo-terminal makes the same activities from rows as from lines",
        arguments: FixtureTests.cases.filter { $0.file.contains("-pty-") && !differFromLines.contains($0.file) })
    func bothSources(_ fixture: FixtureCase) throws {
        let bytes = try Fixture.bytes(fixture.file)
        let rows = ScreenReplay.adapt(bytes, with: fixture.adapter, exitStatus: fixture.exitStatus ?? 0)
        let lines = Fixture.adapt(bytes, with: fixture.adapter, exitStatus: fixture.exitStatus ?? 0)
        #expect(rows.activities.map(\.description) == lines.activities.map(\.description))
        #expect(rows.isWellFormed)
    }

    @Test(
        "the adapters of the pipe path give the same activities read from rows",
        arguments: [
            ("rich/rich-columns-pty-C.txt", "rich", ["Files success 25.0/25.0 ", "Waiting success 1.0/1.0 "]),
            ("rich/rich-track-pty-C.txt", "rich", ["Processing... success 100.0/100.0 "]),
            ("tqdm/tqdm-desc-pty-C.txt", "tqdm", ["Training success 100.0/100.0 "]),
        ] as [(String, String, [String])])
    func sameAsLines(_ file: String, _ adapter: String, _ tree: [String]) throws {
        let adapted = ScreenReplay.adapt(try Fixture.bytes(file), with: adapter)
        #expect(adapted.tree == tree)
    }

    /// apt's `Dpkg::Progress-Fancy` as apt-pkg/install-progress.cc draws it on a screen of 30
    /// rows: room made at the bottom, a scroll region over the rows above it, the status row
    /// drawn there from wherever the cursor is, and cleared at the end.
    /// Each of apt's writes is a chunk.
    static func aptFancy(_ percents: [Int]) -> [[UInt8]] {
        var writes = ["Reading package lists...\r\n\n\u{1B}[s\u{1B}[1;29r\u{1B}[u\u{1B}[1A"]
        for (index, percent) in percents.enumerated() {
            writes.append("Unpacking package\(index) (1.0) ...\r\n")
            let padded = String(repeating: " ", count: 3 - String(percent).count) + String(percent)
            writes.append(
                "\u{1B}7\u{1B}[30;0f\u{1B}[42m\u{1B}[30mProgress: [\(padded)%]\u{1B}[49m\u{1B}[39m [####......]\u{1B}8")
        }
        writes.append("\u{1B}7\u{1B}[1;30r\u{1B}[30;0f\u{1B}[J\u{1B}8Setting up package (1.0) ...\r\n")
        return writes.map { Array($0.utf8) }
    }

    @Test("apt's status row under a scroll region is the installation's progress, at its total when apt succeeds")
    func aptProgressRow() {
        let adapted = ScreenReplay.adapt(chunks: Self.aptFancy([0, 20, 40, 60, 80]), with: "apt")
        #expect(adapted.tree == ["Installing packages success 100.0/100.0 "])
        let counts = adapted.events.compactMap { event -> Double? in
            if case .progress(let progress) = event { return progress.completed }
            return nil
        }
        #expect(counts == [20, 40, 60, 80])
        let failed = ScreenReplay.adapt(chunks: Self.aptFancy([0, 20, 40]), with: "apt", exitStatus: 100)
        #expect(failed.tree == ["Installing packages failure 40.0/100.0 apt exited with status 100"])
    }

    @Test(
        "text that only looks like apt's status row is not read",
        arguments: [
            "Progress: [ 40%] done\r\n", "\r Progress: [40%]", "\rmy progress: [ 40%]", "\rProgress: [140%]",
        ])
    func aptLookalikes(_ text: String) {
        #expect(ScreenReplay.adapt(Array(text.utf8), with: "apt").activities.isEmpty)
    }

    @Test(
        "garbage, cut and interleaved screens are safe for every adapter",
        arguments: AdapterRegistry.builtIn.map(\.name))
    func garbage(_ name: String) throws {
        // Seeded: the same garbage every run, a different one for each adapter.
        var generator = SplitMix64(seed: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        var bytes = try Fixture.bytes("tqdm/tqdm-nested-pty-C.txt") + Fixture.bytes("rich/rich-two-pty-C.txt")
        for _ in 0..<200 {
            bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
        }
        bytes += Self.aptFancy([10, 50]).joined()
        bytes += (0..<2000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for size in [13, 4096] {
            let adapted = ScreenReplay.adapt(Array(bytes.prefix(bytes.count - size)), with: name, chunkSize: size)
            #expect(adapted.isWellFormed)
        }
    }
}

extension Adapted {
    /// Each activity as it ended, indented under its parent.
    var tree: [String] {
        var parents: [ActivityID: ActivityID] = [:]
        var ids: [ActivityID] = []
        for event in events {
            guard case .begin(let begin) = event else { continue }
            ids.append(begin.id)
            if let parent = begin.parent { parents[begin.id] = parent }
        }
        return zip(ids, activities).map { id, activity in
            var depth = 0
            var current = id
            while let parent = parents[current] {
                depth += 1
                current = parent
            }
            return String(repeating: "  ", count: depth) + activity.description
        }
    }
}
