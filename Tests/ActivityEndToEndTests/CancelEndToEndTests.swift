import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Esc in `activity run --mode overlay`, in a real terminal (a private tmux server), reaching
/// producers in four languages: each ends its cancellable activity as cancelled and goes on.
/// (How the stream itself carries the cancel and the `cancelled` end is checked by the unit tests
/// of each library; the overlay keeps no log.)
@Suite("Cancel travels back from the overlay to the producer", .serialized)
struct CancelEndToEndTests {

    enum Producer: String, CaseIterable, Sendable {
        case swift, c, python, shell
    }

    /// The command line of each producer's example, built where it needs building.
    func command(_ producer: Producer, in folder: TemporaryFolder, prefix: URL) throws -> String {
        switch producer {
        case .swift:
            return CommandRunner.binFolder.appending(path: "activity-example-downloads").path + " --wait-for-cancel"
        case .c:
            let cc = try #require(LibactivityBuild.executable("cc"), "no C compiler")
            let binary = folder.url.appending(path: "cancel").path
            let lib = prefix.appending(path: "lib").path
            let built = try LibactivityBuild.run(
                cc,
                [
                    "-Wall", "-Wextra", "-Werror", "-I", prefix.appending(path: "include").path,
                    LibactivityBuild.examples.appending(path: "c/cancel.c").path, "-o", binary, "-L", lib, "-lactivity",
                    "-Wl,-rpath,\(lib)",
                ])
            try #require(built.status == 0, "\(built.combined)")
            return binary
        case .python:
            let python = try #require(LibactivityBuild.executable("python3"), "python3 is not installed")
            return "\(python) \(LibactivityBuild.examples.appending(path: "python/cancel.py").path)"
        case .shell:
            return "sh \(LibactivityBuild.examples.appending(path: "shell/cancel.sh").path)"
        }
    }

    @Test(
        "Esc ends the cancellable activity as cancelled, and the command goes on to exit 0",
        .enabled(if: TmuxPane.isInstalled, "tmux is not installed"), arguments: Producer.allCases)
    func escCancels(_ producer: Producer) async throws {
        let prefix = try await LibactivityBuild.installedPrefix()
        let folder = try TemporaryFolder()
        let command = try self.command(producer, in: folder, prefix: prefix)
        let pane = try pane(running: session(command, folder: folder, prefix: prefix), in: folder)
        try pane.wait(for: "Esc to cancel")
        try pane.wait(for: "Waiting for Cancel")
        try pane.press("Escape")
        // The overlay shows the command's output on the terminal once it hides: the producer's
        // own account of how its activity ended (each example ends it cancelled, then says so).
        try pane.wait(for: "status 0")
        let screen = try pane.screen()
        #expect(screen.contains("stopped: cancelled"), "\(screen)")
    }

    @Test(
        "Esc with nothing cancellable shown interrupts the whole command, as before",
        .enabled(if: TmuxPane.isInstalled, "tmux is not installed"))
    func escInterruptsWithoutCancellable() async throws {
        let prefix = try await LibactivityBuild.installedPrefix()
        let folder = try TemporaryFolder()
        let command = #"sh -c 'activity emit begin "Waiting for nothing" >/dev/null; sleep 30'"#
        let pane = try pane(running: session(command, folder: folder, prefix: prefix), in: folder)
        try pane.wait(for: "Waiting for nothing")
        try pane.press("Escape")
        try pane.wait(for: "status 130")
    }

    /// A pane of a private tmux server running `script` with `sh`.
    func pane(running script: String, in folder: TemporaryFolder) throws -> TmuxPane {
        let path = try folder.file("session.sh", contents: script)
        return try TmuxPane(width: 64, height: 18, command: ["sh", path.path])
    }

    func session(_ command: String, folder: TemporaryFolder, prefix: URL) -> String {
        """
        #!/bin/sh
        export LANG=C.UTF-8 PATH='\(CommandRunner.path)' ACTIVITY_LIBRARY='\(prefix.appending(path: "lib/libactivity.so.0").path)'
        unset ACTIVITY_SINK ACTIVITY_PARENT ACTIVITY_CONTROL NO_COLOR
        cd '\(folder.url.path)'
        activity run --mode overlay -- \(command)
        echo "status $?"
        sleep 60
        """
    }
}
