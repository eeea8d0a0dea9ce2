import Foundation
import TestSupport
import Testing

/// Real tools under `activity run` on a terminal, where the command writes to a pseudo-terminal
/// (every `\n` arrives as `\r\n`): their progress becomes activities, and their own display stays as it is.
@Suite("Adapters on a terminal: real tools under activity run in tmux", .serialized)
struct AdapterTmuxTests {
    static func installed(_ tool: String) -> Bool {
        ["/usr/bin", "/bin", "/usr/local/bin"].contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
        }
    }

    static var available: Bool { installed("tmux") && installed("python3") }

    /// The adapter tests' HTTP server (`serve.py`) on 127.0.0.1, stopped when released.
    final class LocalServer {
        let process = Process()
        let input = Pipe()
        let base: String

        init() throws {
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("ActivityAdaptersTests/Fixtures/serve.py")
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script.path]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            var port = ""
            while !port.hasSuffix("\n"), let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty {
                port += String(decoding: byte, as: UTF8.self)
            }
            base = "http://127.0.0.1:\(port.trimmingCharacters(in: .whitespacesAndNewlines))"
        }

        deinit {
            // serve.py stops when its standard input closes.
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    @Test(
        "wget's bar: its last state is left once, where bare wget leaves it",
        .enabled(if: available && installed("wget")))
    func wgetBar() throws {
        let server = try LocalServer()
        let pane = try TmuxPane(width: 140, height: 30)
        try pane.type(
            "activity run -- wget --progress=bar:force -O /dev/null \(server.base)/slow/300000/30; echo FIN''ISHED")
        #expect(try pane.waitFor("FINISHED", timeout: 60))
        let screen = try pane.screen()
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let saving = try #require(lines.firstIndex { $0.hasPrefix("Saving to: ") }, "\(screen)")
        let saved = try #require(lines.firstIndex { $0.hasSuffix("saved [300000/300000]") }, "\(screen)")
        try #require(saving < saved, "\(screen)")
        // As bare: wget's blank line, its bar as it stood last, once, and the blank line after it.
        let between = lines[(saving + 1)..<saved].filter { !$0.hasPrefix("✔ Downloading") }
        #expect(between.count == 3, "between Saving to: and saved:\n\(screen)")
        #expect(between.first == "" && between.last == "", "\(screen)")
        #expect(between.dropFirst().first?.hasPrefix("/dev/null") == true, "\(screen)")
        #expect(screen.components(separatedBy: "100%[").count == 2, "the bar is left once:\n\(screen)")
        #expect(lines[saved + 1] == "" && lines[saved + 2].hasPrefix("✔ wget"), "\(screen)")
    }

    /// The Python with rich installed (`Scripts/dependencies.sh`), by its full path: the pane's
    /// clean environment has no pyenv or virtual environment of the machine's.
    static let richPython: String? = {
        guard
            let result = try? CommandRunner.run(
                "/usr/bin/env", ["python3", "-c", "import rich, sys; print(sys.executable)"], timeout: 60),
            result.status == 0
        else { return nil }
        let path = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return path.isEmpty ? nil : path
    }()

    @Test(
        "rich's Progress with two tasks: each task is an activity, its rows stay as rich leaves them, console.print stays",
        .enabled(if: installed("tmux") && richPython != nil))
    func richProgress() throws {
        let python = try #require(Self.richPython)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ActivityAdaptersTests/Fixtures/rich/rich-progress.py")
        let pane = try TmuxPane(width: 100, height: 30)
        let log = pane.folder.url.appendingPathComponent("log.jsonl")
        try pane.type(
            "activity run --adapter rich --log-file \(log.path) --log-format jsonl -- \(python) \(script.path) two;"
                + " echo FIN''ISHED")
        #expect(try pane.waitFor("FINISHED", timeout: 60))
        let screen = try pane.screen()
        #expect(screen.contains("checkpoint saved"), "\(screen)")
        // rich's rows stand as rich left them, once each (its own display is kept as it is).
        for task in ["Downloading", "Extracting"] {
            let rows = screen.split(separator: "\n").filter { $0.hasPrefix(task) }
            #expect(rows.count == 1, "\(task):\n\(screen)")
        }
        // The tasks, as the log recorded them: begun under the command, ended as successes.
        let ended = try Self.ended(in: log)
        #expect(ended.sorted() == ["Downloading success", "Extracting success"], "\(ended)")
    }

    /// The activities begun under the command, as `title status` when they end, in the log
    /// `--log-format jsonl` wrote.
    static func ended(in log: URL) throws -> [String] {
        var titles: [String: String] = [:]
        var ended: [String] = []
        for line in try String(contentsOf: log, encoding: .utf8).split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard let object, let id = object["id"] as? String else { continue }
            if object["type"] as? String == "begin", let title = object["title"] as? String, object["parent"] != nil {
                titles[id] = title
            }
            if object["type"] as? String == "end", let title = titles[id] {
                ended.append("\(title) \(object["status"] as? String ?? "success")")
            }
        }
        return ended
    }

    static var indicatifBuilds: Bool {
        installed("tmux") && installed("cargo")
            && ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/share/cargo/registry")) ?? []).contains {
                $0.hasPrefix("indicatif-")
            }
    }

    @Test(
        "indicatif's MultiProgress: each bar is an activity, and its rows leave no trace",
        .enabled(if: indicatifBuilds, "needs cargo and librust-indicatif-dev (Scripts/dependencies.sh lists them)"))
    func indicatifMulti() throws {
        let project = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ActivityAdaptersTests/Fixtures/indicatif")
        let target = try TemporaryFolder()
        // From the project's folder, where cargo finds its .cargo/config.toml (Debian's crates, offline).
        let build = try CommandRunner.run(
            "/usr/bin/env", ["cargo", "build", "--offline", "--locked", "--quiet"],
            environment: ["CARGO_TARGET_DIR": target.url.path], currentDirectory: project, timeout: 600)
        try #require(build.status == 0, "\(build.standardError)")
        let binary = target.url.appendingPathComponent("debug/indicatif-bars").path
        let pane = try TmuxPane(width: 100, height: 30)
        let log = pane.folder.url.appendingPathComponent("log.jsonl")
        try pane.type(
            "activity run --adapter indicatif --log-file \(log.path) --log-format jsonl -- \(binary) multi;"
                + " echo FIN''ISHED")
        #expect(try pane.waitFor("FINISHED", timeout: 60))
        let screen = try pane.screen()
        #expect(!screen.contains("░") && !screen.contains("fetching"), "indicatif's rows are not left:\n\(screen)")
        #expect(try Self.ended(in: log) == ["Progress success", "Progress success"])
    }
}
