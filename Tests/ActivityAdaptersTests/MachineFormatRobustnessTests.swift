import ActivityAdapters
import ActivityWire
import TestSupport
import Testing

@Suite("Machine formats: other lines, other JSON and cut lines")
struct MachineFormatRobustnessTests {
    @Test(
        "lines of other output and JSON of another shape pass through, and the format is read as without them",
        arguments: FixtureTests.machineFormatCases)
    func interleaved(_ fixture: FixtureCase) throws {
        let input = try Fixture.bytes(fixture.file)
        var mixed: [UInt8] = []
        var noise: [String] = []
        for (index, line) in input.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().enumerated() {
            mixed += line + [0x0A]
            let other = index % 2 == 0 ? "unrelated line \(index)\n" : #"{"unrelated":\#(index),"type":"x"}"# + "\n"
            mixed += Array(other.utf8)
            noise.append(other)
        }
        try #require(noise.count >= 2)
        let clean = Fixture.adapt(
            input, with: fixture.adapter, command: fixture.command, exitStatus: fixture.exitStatus)
        let adapted = Fixture.adapt(
            mixed, with: fixture.adapter, command: fixture.command, chunkSize: 64, exitStatus: fixture.exitStatus)
        #expect(adapted.activities.map(\.description) == clean.activities.map(\.description))
        #expect(adapted.isWellFormed)
        #expect(adapted.passthroughText == noise.joined())
    }

    @Test("every line cut short passes through unread", arguments: FixtureTests.machineFormatCases)
    func cutLines(_ fixture: FixtureCase) throws {
        let input = try Fixture.bytes(fixture.file)
        var cut: [UInt8] = []
        for line in input.split(separator: 0x0A) { cut += line.prefix(line.count * 2 / 3) + [0x0A] }
        let adapted = Fixture.adapt(cut, with: fixture.adapter, command: fixture.command)
        #expect(adapted.events.isEmpty)
        #expect(adapted.passthrough == cut)
    }
}

@Suite("Machine formats: after the tool's fatal error")
struct MachineFormatErrorTests {
    @Test(
        "records after the error that stopped the tool begin nothing",
        arguments: [
            ("pnpm/pnpm-install-failed.ndjson", "pnpm", #"{"name":"pnpm:summary","level":"debug","prefix":"/x"}"#),
            ("docker/docker-pull-error.jsonl", "docker-stream", #"{"status":"Digest: sha256:0"}"#),
        ])
    func afterError(_ file: String, _ adapter: String, _ later: String) throws {
        let input = try Fixture.bytes(file)
        let clean = Fixture.adapt(input, with: adapter, exitStatus: 1)
        let adapted = Fixture.adapt(input + Array((later + "\n").utf8), with: adapter, exitStatus: 1)
        #expect(adapted.activities.map(\.description) == clean.activities.map(\.description))
        #expect(adapted.passthrough.isEmpty)
    }
}
