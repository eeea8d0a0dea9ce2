import Foundation
import TestSupport
import Testing

/// Real tools under `activity run` on a terminal, where the command writes to a pseudo-terminal
/// (every `\n` arrives as `\r\n`): their progress becomes activities, and their own display stays as it is.
@Suite("Adapters on a terminal: real tools under activity run in tmux", .serialized)
struct AdapterTmuxTests {
    static func installed(_ tool: String) -> Bool { executableOnPath(tool) != nil }

    static var available: Bool { installed("tmux") && installed("python3") }

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

    /// The Python with pip, by its full path (the pane's clean environment has no pyenv shims).
    static let pipPython: String? = {
        guard
            let result = try? CommandRunner.run(
                "/usr/bin/env", ["python3", "-c", "import pip, sys; print(sys.executable)"], timeout: 60),
            result.status == 0
        else { return nil }
        let path = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return path.isEmpty ? nil : path
    }()

    @Test(
        "pip's own bar on a terminal: the download is an activity in bytes that ends at its total; the bar is left once",
        .enabled(if: available && pipPython != nil))
    func pipBar() throws {
        let python = try #require(Self.pipPython)
        let pane = try TmuxPane(width: 100, height: 30)
        // A wheel of 3 MB that pip takes for one (a zip with its metadata), served in 64 KiB pieces
        // every 40 ms so that pip draws its bar for a while.
        let wheel = "bigpkg-1.0-py3-none-any.whl"
        let maker = try pane.folder.file(
            "make_wheel.py",
            contents: """
                import base64, hashlib, os, sys, zipfile
                files = {
                    "bigpkg/__init__.py": b"",
                    "bigpkg/data.bin": os.urandom(3 * 1024 * 1024),
                    "bigpkg-1.0.dist-info/METADATA": b"Metadata-Version: 2.1\\nName: bigpkg\\nVersion: 1.0\\n",
                    "bigpkg-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
                }
                record = [f"{name},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},{len(data)}"
                          for name, data in files.items()] + ["bigpkg-1.0.dist-info/RECORD,,"]
                with zipfile.ZipFile(sys.argv[1], "w") as archive:
                    for name, data in files.items():
                        archive.writestr(name, data)
                    archive.writestr("bigpkg-1.0.dist-info/RECORD", "\\n".join(record) + "\\n")
                """)
        let made = try CommandRunner.run(python, [maker.path, pane.folder.url.appendingPathComponent(wheel).path])
        try #require(made.status == 0, "\(made.standardError)")
        let server = try LocalServer(directory: pane.folder.url)
        let log = pane.folder.url.appendingPathComponent("log.jsonl")
        try pane.type(
            "cd '\(pane.folder.url.path)'; PIP_CONFIG_FILE=/dev/null PIP_NO_INDEX=1 PIP_FIND_LINKS= "
                + "activity run --log-file \(log.path) --log-format jsonl -- \(python) -m pip download --no-deps"
                + " --no-cache-dir -d dl \(server.base)/file/40/\(wheel); echo FIN''ISHED")
        #expect(try pane.waitFor("FINISHED", timeout: 120))
        let screen = try pane.screen()
        #expect(screen.contains("Successfully downloaded bigpkg"), "\(screen)")
        #expect(screen.components(separatedBy: "3.1/3.1 MB").count == 2, "the bar is left once:\n\(screen)")
        #expect(try Self.ended(in: log) == ["Downloading \(wheel) success"])
        let events = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let begin = try #require(events.first { $0["type"] as? String == "begin" && $0["parent"] != nil }, "\(events)")
        #expect(begin["unit"] as? String == "bytes", "\(begin)")
        let total = try #require(begin["total"] as? Double, "\(begin)")
        #expect(total > 3_000_000, "\(begin)")
        // The download's last count is its total.
        let counts = events.filter { $0["id"] as? String == begin["id"] as? String }.compactMap {
            $0["completed"] as? Double
        }
        #expect(counts.last == total, "\(counts)")
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
