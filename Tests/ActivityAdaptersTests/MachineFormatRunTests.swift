import ActivityAdapters
import ActivityWire
import Foundation
import Testing

/// `activity run` picks a machine format's adapter from the command line, with stand-in tools
/// that write the fixtures as the real ones would.
@Suite("Machine formats under activity run")
struct MachineFormatRunTests {
    @Test("nix --log-format internal-json on standard error: Nix's activities nest under the command's")
    func nixUnderRun() throws {
        let folder = try LiveToolTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = Fixture.folder.appendingPathComponent("nix/nix-build-failed.txt").path
        try RunAdapterTests.script("nix", "cat '\(fixture)' >&2\necho ./result\nexit 1\n", in: folder)
        let result = try LiveToolTests.run(
            ["nix", "build", "--log-format", "internal-json", "nixpkgs#hello"], in: folder, path: folder.path)
        let expected = try #require(FixtureTests.nixCases.last)
        #expect(result.status == 1)
        #expect(result.activities.map(\.description) == expected.activities)
        #expect(result.root?.error == "\(expected.failure!) (exit status 1)")
        #expect(result.output == "./result\n")
        #expect(!result.passedThrough.contains { $0.contains("@nix") })
    }

    @Test("terraform -json into a file is the command's data: every line is kept and none is read")
    func terraformDataUnread() throws {
        let folder = try LiveToolTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = Fixture.folder.appendingPathComponent("terraform/terraform-apply.jsonl")
        try RunAdapterTests.script("terraform", "cat '\(fixture.path)'\n", in: folder)
        let result = try LiveToolTests.run(
            ["terraform", "apply", "-auto-approve", "-json"], in: folder, path: folder.path)
        #expect(result.status == 0)
        #expect(result.activities.isEmpty)
        #expect(result.output == String(decoding: try Fixture.bytes("terraform/terraform-apply.jsonl"), as: UTF8.self))
    }
}
