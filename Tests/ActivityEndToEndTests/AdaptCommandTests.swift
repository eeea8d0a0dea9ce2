import ActivityWire
import Foundation
import TestSupport
import Testing

/// `activity adapt NAME` on the adapters' captures: the command a shell pipes a tool into.
@Suite("activity adapt")
struct AdaptCommandTests {
    @Test("activity adapt zig reads the binary stream on its standard input")
    func zig() throws {
        let fixture = AdapterFixtures.folder.appendingPathComponent("zig/zig-build.bin")
        let result = try CommandRunner.activity(
            ["adapt", "--exit-status", "0", "zig"], input: try Data(contentsOf: fixture))
        #expect(result.status == 0)
        #expect(
            EndedActivity.all(in: EventLog(result.standardOutput).events).map(\.description)
                == AdapterFixtures.zigBuildActivities)
    }
}
