import Foundation
import TestSupport
import Testing

/// The overlay modes draw under a render session like every other display: `--log-file`,
/// `--plugin` and the count of problems in the stream work with them too.
@Suite("Overlay modes under the render session")
struct OverlaySessionTests {
    static let stream = """
        {"v":1,"type":"begin","id":"a","title":"Build","cancellable":true}
        {"v":1,"type":"progress","id":"a","completed":1,"total":4}
        a line from the tool
        {"v":1,"type":"progress","id":"zz","completed":1}
        {"v":1,"type":"end","id":"a"}

        """

    /// A plugin that keeps the stream it is fed in `fed.jsonl` next to it.
    static func recorder(in folder: TemporaryFolder) throws -> URL {
        let fed = folder.url.appendingPathComponent("fed.jsonl").path
        _ = try folder.file(
            "activity-render-recorder", contents: "#!/bin/sh\ncat > '\(fed)'\n", executable: true)
        return URL(fileURLWithPath: fed)
    }

    @Test("overlay-jsonl: the log file and history are written, the plugin fed; standard output holds only states")
    func jsonLinesWithLogFileAndPlugin() throws {
        let folder = try TemporaryFolder()
        let log = folder.url.appendingPathComponent("build.log").path
        let history = folder.url.appendingPathComponent("history").path
        let fed = try Self.recorder(in: folder)
        let result = try CommandRunner.activity(
            ["render", "--mode", "overlay-jsonl", "--log-file", log, "--plugin", "recorder", "--history", history],
            input: Data(Self.stream.utf8),
            environment: CommandRunner.baseEnvironment(["PATH": folder.url.path + ":" + CommandRunner.path]))
        #expect(result.status == 0, "\(result.standardError)")
        let states = result.standardOutput.split(separator: "\n")
        #expect(!states.isEmpty)
        #expect(states.allSatisfy { $0.hasPrefix(#"{"v":1,"type":"overlay-state""#) }, "\(result.standardOutput)")
        #expect(states.last?.contains(#""phase":"idle""#) == true)
        #expect(result.standardError.contains("a line from the tool\n"), "\(result.standardError)")
        // The session's rules: a progress for an activity that is not open is a problem, named.
        #expect(
            result.standardError.contains(#"activity: line 4: unknown-activity: progress for "zz""#),
            "\(result.standardError)")
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(text.contains("begin id=a title=Build"), "\(text)")
        #expect(text.contains("output stream=stdout text=\"a line from the tool\""), "\(text)")
        #expect(text.contains("end id=a title=Build status=success"), "\(text)")
        #expect(text.contains("problems=1"), "\(text)")
        let plugin = (try? String(contentsOf: fed, encoding: .utf8)) ?? ""
        #expect(plugin.contains(#""type":"begin""#) && plugin.contains(#""type":"end""#), "\(plugin)")
        let durations = (try? String(contentsOfFile: history, encoding: .utf8)) ?? ""
        #expect(durations.hasSuffix("\tBuild\n"), "\(durations)")
    }

    @Test("overlay-jsonl: a log file that cannot be created ends it with 73 before any state is written")
    func jsonLinesLogFileFails() throws {
        let result = try CommandRunner.activity(
            ["render", "--mode", "overlay-jsonl", "--log-file", "/nonexistent/dir/build.log"],
            input: Data(Self.stream.utf8), environment: CommandRunner.baseEnvironment())
        #expect(result.status == 73)
        #expect(result.standardOutput == "")
        let message = "activity render: --log-file /nonexistent/dir/build.log: No such file or directory\n"
        #expect(result.standardError == message)
    }

    @Test(
        "overlay in a terminal: the log file and the plugin get the stream; held output appears as the overlay hides",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is missing")
    )
    func terminalOverlayWithLogFile() throws {
        let folder = try TemporaryFolder()
        let log = folder.url.appendingPathComponent("build.log").path
        let fed = try Self.recorder(in: folder)
        let gate = folder.url.appendingPathComponent("gate").path
        let producer = try folder.file(
            "producer.sh",
            contents: """
                #!/bin/sh
                echo '{"v":1,"type":"begin","id":"a","title":"Signing in","cancellable":true,"blocking":"dim"}'
                echo 'a line from the tool'
                i=0
                while [ ! -e '\(gate)' ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done
                echo '{"v":1,"type":"end","id":"a"}'
                """, executable: true)
        let pane = try TmuxPane(width: 64, height: 18)
        try pane.type("export PATH='\(folder.url.path)':$PATH; clear")
        try pane.type(
            "'\(producer.path)' | activity render --mode overlay "
                + "--log-file '\(log)' --plugin recorder; echo \"status $?\"; echo FIN''ISHED")
        #expect(try pane.waitFor("Esc to cancel"))
        #expect(!(try pane.screen()).contains("a line from the tool"))  // the overlay covers the session
        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        #expect(try pane.waitFor("FINISHED"))
        let screen = try pane.screen()
        #expect(screen.contains("status 0"), "\(screen)")
        #expect(screen.contains("a line from the tool"), "\(screen)")
        #expect(pane.cursorVisible)
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(text.contains("begin id=a title=\"Signing in\""), "\(text)")
        #expect(text.contains("output stream=stdout text=\"a line from the tool\""), "\(text)")
        #expect(text.contains("status=success"), "\(text)")
        let plugin = (try? String(contentsOf: fed, encoding: .utf8)) ?? ""
        #expect(plugin.contains(#""title":"Signing in""#), "\(plugin)")
    }
}
