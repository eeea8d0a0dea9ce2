import Foundation
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
    static let tmux = Support.executable("tmux")

    /// The folder of the built products (`activity`, the Swift example): the test runner sits in it.
    static let products: URL = {
        var folder = Bundle.main.bundleURL
        if folder.pathExtension == "xctest" || !folder.hasDirectoryPath { folder = folder.deletingLastPathComponent() }
        return folder
    }()

    enum Producer: String, CaseIterable, Sendable {
        case swift, c, python, shell
    }

    /// The command line of each producer's example, built where it needs building.
    func command(_ producer: Producer, in folder: TemporaryDirectory, prefix: URL) throws -> String {
        switch producer {
        case .swift:
            return Self.products.appending(path: "activity-example-downloads").path + " --wait-for-cancel"
        case .c:
            let cc = try #require(Support.executable("cc"), "no C compiler")
            let binary = folder.url.appending(path: "cancel").path
            let lib = prefix.appending(path: "lib").path
            let built = try Support.run(
                cc,
                [
                    "-Wall", "-Wextra", "-Werror", "-I", prefix.appending(path: "include").path,
                    Support.examples.appending(path: "c/cancel.c").path, "-o", binary, "-L", lib, "-lactivity",
                    "-Wl,-rpath,\(lib)",
                ])
            try #require(built.status == 0, "\(built.combined)")
            return binary
        case .python:
            let python = try #require(Support.executable("python3"), "python3 is not installed")
            return "\(python) \(Support.examples.appending(path: "python/cancel.py").path)"
        case .shell:
            return "sh \(Support.examples.appending(path: "shell/cancel.sh").path)"
        }
    }

    @Test(
        "Esc ends the cancellable activity as cancelled, and the command goes on to exit 0",
        .enabled(if: tmux != nil, "tmux is not installed"), arguments: Producer.allCases)
    func escCancels(_ producer: Producer) async throws {
        let prefix = try await Support.installedPrefix()
        let folder = try TemporaryDirectory()
        let command = try self.command(producer, in: folder, prefix: prefix)
        let pane = try Pane(folder: folder, script: session(command, folder: folder, prefix: prefix))
        try pane.wait(for: "Esc to cancel")
        try pane.wait(for: "Waiting for Cancel")
        try pane.press("Escape")
        // The overlay shows the command's output on the terminal once it hides: the producer's
        // own account of how its activity ended (each example ends it cancelled, then says so).
        try pane.wait(for: "status 0")
        #expect(pane.screen.contains("stopped: cancelled"), "\(pane.screen)")
    }

    @Test(
        "Esc with nothing cancellable shown interrupts the whole command, as before",
        .enabled(if: tmux != nil, "tmux is not installed"))
    func escInterruptsWithoutCancellable() async throws {
        let prefix = try await Support.installedPrefix()
        let folder = try TemporaryDirectory()
        let command = #"sh -c 'activity emit begin "Waiting for nothing" >/dev/null; sleep 30'"#
        let pane = try Pane(folder: folder, script: session(command, folder: folder, prefix: prefix))
        try pane.wait(for: "Waiting for nothing")
        try pane.press("Escape")
        try pane.wait(for: "status 130")
    }

    func session(_ command: String, folder: TemporaryDirectory, prefix: URL) -> String {
        let path = Self.products.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return """
            #!/bin/sh
            export LANG=C.UTF-8 PATH='\(path)' ACTIVITY_LIBRARY='\(prefix.appending(path: "lib/libactivity.so.0").path)'
            unset ACTIVITY_SINK ACTIVITY_PARENT ACTIVITY_CONTROL NO_COLOR
            cd '\(folder.url.path)'
            activity run --mode overlay -- \(command)
            echo "status $?"
            sleep 60
            """
    }

    /// A tmux server of the test's own running `script`, killed afterwards.
    final class Pane {
        let socket = "activity-cancel-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let tmux: String

        init(folder: TemporaryDirectory, script: String) throws {
            tmux = try #require(CancelEndToEndTests.tmux)
            let path = folder.url.appending(path: "session.sh")
            try script.write(to: path, atomically: true, encoding: .utf8)
            try run(["new-session", "-d", "-s", "cancel", "-x", "64", "-y", "18", "sh", path.path])
        }

        /// Runs a tmux command with posix_spawn: Foundation's `Process` does not leave the server
        /// that `new-session` starts running.
        @discardableResult
        func run(_ arguments: [String], check: Bool = true) throws -> String {
            let output = FileManager.default.temporaryDirectory.appending(path: "tmux-\(UUID().uuidString)").path
            defer { unlink(output) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let argv = ([tmux, "-L", socket, "-f", "/dev/null"] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            try #require(posix_spawn(&pid, tmux, &actions, nil, argv, environ) == 0)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            if check { try #require(status == 0, "tmux \(arguments) failed") }
            return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        }

        var screen: String { (try? run(["capture-pane", "-p", "-t", "cancel"], check: false)) ?? "" }

        func press(_ key: String) throws { try run(["send-keys", "-t", "cancel", key]) }

        /// Waits until the pane shows `text`; the deadline only bounds a broken run.
        func wait(for text: String) throws {
            let deadline = Date().addingTimeInterval(60)
            while !screen.contains(text), Date() < deadline { usleep(20_000) }
            try #require(screen.contains(text), "the pane never showed \(text):\n\(screen)")
        }

        deinit { _ = try? run(["kill-server"], check: false) }
    }
}
