import ActivityWire
import Foundation
import TestSupport
import Testing

/// `activity run` picks a machine format's adapter from the command line, with stand-in tools
/// that write the fixtures as the real ones would.
@Suite("Machine formats under activity run")
struct MachineFormatRunTests {
    @Test("nix --log-format internal-json on standard error: Nix's activities nest under the command's")
    func nixUnderRun() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        let fixture = AdapterFixtures.folder.appendingPathComponent("nix/nix-build-failed.txt").path
        try RunAdapterTests.script("nix", "cat '\(fixture)' >&2\necho ./result\nexit 1\n", in: folder)
        let result = try LiveToolTests.run(
            ["nix", "build", "--log-format", "internal-json", "nixpkgs#hello"], in: folder, path: folder.path)
        // What `activity adapt nix` makes of the same capture (FixtureTests checks that, activity
        // by activity); under run the same activities nest under the command's.
        let adapted = try CommandRunner.activity(
            ["adapt", "--exit-status", "1", "nix"], input: try Data(contentsOf: URL(fileURLWithPath: fixture)))
        let expected = EndedActivity.all(in: EventLog(adapted.standardOutput).events)
        #expect(expected.contains { $0.description == "Building failure 0.0/1.0 1 failed" })
        #expect(result.status == 1)
        #expect(result.activities.map(\.description) == expected.map(\.description))
        #expect(result.root?.error == "\(expected.last?.error ?? "?") (exit status 1)")
        #expect(result.output == "./result\n")
        #expect(!result.passedThrough.contains { $0.contains("@nix") })
    }

    @Test("terraform -json into a file is the command's data: every line is kept and none is read")
    func terraformDataUnread() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        let fixture = AdapterFixtures.folder.appendingPathComponent("terraform/terraform-apply.jsonl")
        try RunAdapterTests.script("terraform", "cat '\(fixture.path)'\n", in: folder)
        let result = try LiveToolTests.run(
            ["terraform", "apply", "-auto-approve", "-json"], in: folder, path: folder.path)
        #expect(result.status == 0)
        #expect(result.activities.isEmpty)
        #expect(
            result.output
                == String(decoding: try AdapterFixtures.bytes("terraform/terraform-apply.jsonl"), as: UTF8.self))
    }
}

/// `activity run -- zig …` passes Zig's progress descriptor, with a stand-in `zig` (bash: sh
/// cannot name descriptors above 9) that writes frames to `$ZIG_PROGRESS` as Zig's std.Progress does.
@Suite("Zig's ZIG_PROGRESS under activity run")
struct ZigProgressRunTests {
    static func zig(in folder: URL, exitStatus: Int32) throws {
        try Data(AdapterFixtures.bytes("zig/zig-build.bin")).write(to: folder.appendingPathComponent("frames.bin"))
        let script = """
            #!/bin/bash
            printf '%s' "${ZIG_PROGRESS-unset}" > "\(folder.path)/zig-progress"
            [ -n "${ZIG_PROGRESS-}" ] && sed -n 's/^flags:[[:space:]]*//p' /proc/self/fdinfo/$ZIG_PROGRESS \
                > "\(folder.path)/zig-progress-flags"
            [ -n "${ZIG_PROGRESS-}" ] && cat "\(folder.path)/frames.bin" >&$ZIG_PROGRESS
            echo "Build Summary: 2/2 steps succeeded" >&2
            echo built
            exit \(exitStatus)

            """
        try AptStatusDescriptorTests.install(script, as: "zig", in: folder)
    }

    @Test("zig build's progress tree nests under the command's activity; Zig's text passes through")
    func zigBuildUnderRun() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        try Self.zig(in: folder, exitStatus: 0)
        let result = try LiveToolTests.run(["zig", "build"], in: folder, extra: ["-v"], path: folder.path)
        #expect(result.status == 0)
        #expect(result.display.contains("zig: progress on descriptor"))
        #expect(result.activities.map(\.description) == AdapterFixtures.zigBuildActivities)
        #expect(result.output == "built\n")
        #expect(result.display.contains("Build Summary: 2/2 steps succeeded"))
        let number = try String(contentsOf: folder.appendingPathComponent("zig-progress"), encoding: .utf8)
        #expect((Int(number) ?? 0) >= 3)
        // Non-blocking, as Zig's own parent makes it (O_NONBLOCK is octal 4000 on Linux).
        let flags = try String(contentsOf: folder.appendingPathComponent("zig-progress-flags"), encoding: .utf8)
        #expect((Int(flags.trimmingCharacters(in: .whitespacesAndNewlines), radix: 8) ?? 0) & 0o4000 != 0)
    }

    @Test("--adapter zig for another program's name; a failure fails the open nodes")
    func adapterOptionAndFailure() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        try Self.zig(in: folder, exitStatus: 1)
        try LiveToolTests.shell("cp zig zig-0.15", in: folder)
        let result = try LiveToolTests.run(
            ["zig-0.15", "build"], in: folder, extra: ["--adapter", "zig"], path: folder.path)
        #expect(result.status == 1)
        #expect(
            result.activities.map(\.description).filter { $0.contains("failure") } == [
                "steps failure 1.0/2.0 zig-0.15 exited with status 1",
                "install hello failure 0.0/? zig-0.15 exited with status 1",
            ])
    }

    @Test("after sudo, which closes descriptors above 2, zig gets no ZIG_PROGRESS; -v says why")
    func noDescriptorThroughSudo() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        try Self.zig(in: folder, exitStatus: 0)
        try AptStatusDescriptorTests.install("#!/bin/sh\nexec \"$@\"\n", as: "sudo", in: folder)
        let result = try LiveToolTests.run(["sudo", "zig", "build"], in: folder, extra: ["-v"], path: folder.path)
        #expect(result.status == 0)
        #expect(result.display.contains("zig: no progress descriptor: sudo closes descriptors above 2"))
        #expect(try String(contentsOf: folder.appendingPathComponent("zig-progress"), encoding: .utf8) == "unset")
    }

    @Test("without zig's adapter the command gets no ZIG_PROGRESS of run's")
    func noDescriptorOtherwise() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        try Self.zig(in: folder, exitStatus: 0)
        let result = try LiveToolTests.run(
            ["zig", "build"], in: folder, extra: ["--adapter", "none"], path: folder.path)
        #expect(result.status == 0)
        #expect(result.activities.isEmpty)
        #expect(try String(contentsOf: folder.appendingPathComponent("zig-progress"), encoding: .utf8) == "unset")
    }
}
