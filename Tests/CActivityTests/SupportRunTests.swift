import Foundation
import TestSupport
import Testing

/// What `LibactivityBuild.run` gives the programs the libactivity suites run.
@Suite("Programs the libactivity suites run")
struct SupportRunTests {
    // make check's "descriptor 77 is not open" failed in CI: a descriptor another test had open
    // without close-on-exec reached the program through posix_spawn.
    @Test("no descriptor of the test process above 2 reaches the program, and every signal is unblocked")
    func cleanChild() throws {
        let leaked = open("/dev/null", O_RDONLY)  // without O_CLOEXEC, as a careless test might
        try #require(leaked > 2)
        defer { close(leaked) }
        let outcome = try LibactivityBuild.run(
            "/bin/sh",
            ["-c", "test ! -e /proc/self/fd/\(leaked) && grep -q '^SigBlk:[[:space:]]*0*$' /proc/self/status"])
        #expect(outcome.status == 0, "\(outcome.combined)")
    }
}
