import ActivityAdapters
import ActivityWire
import TestSupport
import Testing

@Suite("Adapters: garbage, truncated and interleaved input")
struct RobustnessTests {
    static let adapters = AdapterRegistry.builtIn.map(\.name)

    @Test("garbage passes through byte for byte, and nothing crashes", arguments: adapters)
    func garbage(_ name: String) {
        var generator = SplitMix64(seed: 42)
        let bytes = (0..<30_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        for size in [1, 97, 65_536] {
            let adapted = Fixture.adapt(bytes, with: name, chunkSize: size)
            #expect(adapted.isWellFormed)
            // Random bytes hold no progress line; every byte comes back.
            #expect(adapted.passthrough == bytes)
        }
    }

    @Test("text that only looks like progress is left alone", arguments: adapters)
    func lookalikes(_ name: String) {
        let text = "[x/y] 12%% (a/b)\rProgress of\nfoo: 12, done\n--\n100\u{0}%\r\r\n\n\u{1B}[2K\rtime=\n"
        let adapted = Fixture.adapt(Array(text.utf8), with: name, chunkSize: 3)
        #expect(adapted.passthroughText == text)
        #expect(adapted.isWellFormed)
    }

    @Test("a truncated capture ends every activity it began", arguments: FixtureTests.cases.map(\.file))
    func truncated(_ file: String) throws {
        let input = try Fixture.bytes(file)
        let name = FixtureTests.cases.first { $0.file == file }!.adapter
        for cut in [input.count / 3, input.count / 2, input.count - 1] where cut > 0 {
            let adapted = Fixture.adapt(Array(input[..<cut]), with: name, chunkSize: 500)
            #expect(adapted.isWellFormed)
        }
    }

    @Test("interleaved with other output, progress is still read and the rest passes through unchanged")
    func interleaved() throws {
        let git = try Fixture.bytes("git/git-clone-C.txt")
        var mixed: [UInt8] = []
        var noise: [UInt8] = []
        for (index, chunk) in stride(from: 0, to: git.count, by: 900).enumerated() {
            mixed += git[chunk..<min(git.count, chunk + 900)]
            if mixed.last == 0x0A {
                let line = Array("unrelated line \(index)\n".utf8)
                mixed += line
                noise += line
            }
        }
        let adapted = Fixture.adapt(mixed, with: "git", chunkSize: 64)
        #expect(adapted.activities.count == 5)
        #expect(adapted.activities.allSatisfy { $0.status == .success })
        for line in String(decoding: noise, as: UTF8.self).split(separator: "\n") {
            #expect(adapted.passthroughText.contains(line + "\n"))
        }
    }

    @Test(
        "lines of other output between redrawn frames pass through, and the bars are read as without them",
        arguments: [
            ("rich/rich-two-pty-C.txt", "rich"), ("rich/rich-columns-pty-C.txt", "rich"),
            ("indicatif/indicatif-default-pty-C.txt", "indicatif"),
            ("indicatif/indicatif-multi-pty-C.txt", "indicatif"),
        ])
    func interleavedFrames(_ file: String, _ adapter: String) throws {
        let input = try Fixture.bytes(file)
        // Another program's line where a frame begins again (`\r ESC [2K`), as on a shared terminal.
        let frameStart: [UInt8] = [0x0D, 0x1B, UInt8(ascii: "["), UInt8(ascii: "2"), UInt8(ascii: "K")]
        var mixed: [UInt8] = []
        var noise: [String] = []
        var frames = 0
        for (index, byte) in input.enumerated() {
            mixed.append(byte)
            guard input[index...].starts(with: frameStart) else { continue }
            frames += 1
            if frames % 3 == 0 {
                let line = "unrelated line \(noise.count)\n"
                mixed += Array(line.utf8)
                noise.append(line)
            }
        }
        try #require(noise.count >= 3)
        let clean = Fixture.adapt(input, with: adapter, exitStatus: 0)
        let adapted = Fixture.adapt(mixed, with: adapter, chunkSize: 64, exitStatus: 0)
        #expect(adapted.activities.map(\.description) == clean.activities.map(\.description))
        #expect(adapted.isWellFormed)
        for line in noise { #expect(adapted.passthroughText.contains(line), "\(line) passes through") }
    }

    @Test(
        "other lines between a tool's status lines pass through, and the progress is read as without them",
        arguments: [
            ("pv/pv-default-pipe-C.txt", "pv"), ("pv/pv-default-pty-C.txt", "pv"), ("pv/pv-format-tba-C.txt", "pv"),
            ("pip/pip-bar-pty-C.txt", "pip"), ("cargo/cargo-build-pty-C.txt", "cargo"),
        ])
    func interleavedLines(_ file: String, _ adapter: String) throws {
        let input = try Fixture.bytes(file)
        var mixed: [UInt8] = []
        var noise: [String] = []
        for (index, byte) in input.enumerated() {
            mixed.append(byte)
            // After a frame's `\r` (not the first half of a `\r\n`), as another program would write.
            guard byte == 0x0D, index + 1 < input.count, input[index + 1] != 0x0A, input[index + 1] != 0x0D else {
                continue
            }
            let line = "unrelated line \(noise.count)\n"
            mixed += Array(line.utf8)
            noise.append(line)
        }
        try #require(noise.count >= 2)
        let clean = Fixture.adapt(input, with: adapter, exitStatus: 0)
        try #require(!clean.activities.isEmpty)
        let adapted = Fixture.adapt(mixed, with: adapter, chunkSize: 64, exitStatus: 0)
        #expect(adapted.activities.map(\.description) == clean.activities.map(\.description))
        #expect(adapted.isWellFormed)
        for line in noise { #expect(adapted.passthroughText.contains(line), "\(line) passes through") }
    }

    @Test("a line over the limit passes through unread, in bounded memory")
    func overlong() {
        let long = [UInt8](repeating: UInt8(ascii: "5"), count: 200_000) + Array("% (1/2)\n[1/2] x\n".utf8)
        let adapted = Fixture.adapt(long, with: "ninja", chunkSize: 4096)
        #expect(adapted.passthrough == Array(long.dropLast("[1/2] x\n".utf8.count)))
        #expect(
            adapted.activities.map(\.description) == [
                "Building failure 1.0/2.0 the output of ninja ended before it finished"
            ])
    }
}
