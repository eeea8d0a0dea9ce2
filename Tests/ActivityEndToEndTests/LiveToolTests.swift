import ActivityWire
import Foundation
import TestSupport
import Testing

/// Runs the real tools under `activity run --mode jsonl` against local data and checks the
/// recorded activities.
@Suite("Real tools under activity run", .serialized)
struct LiveToolTests {
    static func installed(_ tool: String) -> Bool { executableOnPath(tool) != nil }

    struct Recorded {
        /// As a shell's `$?` gives it: 128 + N for a run ended by signal N.
        var status: Int32
        var activities: [EndedActivity]
        var root: EndedActivity?
        var output: String
        /// The display: events, and the output that passed through on standard error.
        var display: String

        /// The lines of the display that are not events.
        var passedThrough: [Substring] { display.split(separator: "\n").filter { !$0.hasPrefix("{") } }
    }

    /// A program started by ``launch(_:_:in:path:environment:)``.
    struct Started {
        let pid: pid_t

        /// Its status once it ended, as a shell's `$?` gives it: 128 + N for an end by signal N.
        func wait() -> Int32 {
            let ended = CommandRunner.wait(pid, timeout: 300, what: "activity run")
            return ended.killed ? 128 + ended.code : ended.code
        }
    }

    /// `activity run --mode jsonl [extra] -- command` in `folder`; the display is on standard error.
    static func run(_ command: [String], in folder: URL, extra: [String] = [], path: String? = nil) throws -> Recorded {
        let started = try start(command, in: folder, extra: extra, path: path)
        return try recorded(status: started.wait(), in: folder)
    }

    /// Starts `activity run --mode jsonl [extra] -- command` in `folder` (``launch(_:_:in:path:environment:)``).
    static func start(_ command: [String], in folder: URL, extra: [String] = [], path: String? = nil) throws -> Started
    {
        try launch(
            CommandRunner.activity, ["run", "--mode", "jsonl"] + extra + ["--"] + command, in: folder, path: path)
    }

    /// Starts `executable` in `folder` in the C locale, with no sink or apt configuration of the
    /// caller's, `path` first on `PATH` and `environment` added; its display (standard error) goes
    /// to `display.jsonl`, its standard output to `stdout.txt`. Descriptors above 2 are closed in
    /// it: one another test opened meanwhile is never the tool's.
    static func launch(
        _ executable: String, _ arguments: [String], in folder: URL, path: String? = nil,
        environment added: [String: String] = [:]
    ) throws -> Started {
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C"
        environment["ACTIVITY_SINK"] = nil
        environment["ACTIVITY_PARENT"] = nil
        environment["APT_CONFIG"] = nil
        if let path { environment["PATH"] = path + ":" + (environment["PATH"] ?? "/usr/bin:/bin") }
        environment.merge(added) { $1 }
        let pid = try CommandRunner.spawn(
            executable, arguments, environment: environment, directory: folder.path, stdin: "/dev/null",
            stdout: folder.appendingPathComponent("stdout.txt").path,
            stderr: folder.appendingPathComponent("display.jsonl").path, closesOtherDescriptors: true)
        return Started(pid: pid)
    }

    /// What a run that ended with `status` recorded in `folder`.
    static func recorded(status: Int32, in folder: URL) throws -> Recorded {
        let lines = try String(contentsOf: folder.appendingPathComponent("display.jsonl"), encoding: .utf8)
        let all = EndedActivity.all(in: EventLog(lines).events)
        return Recorded(
            status: status,
            activities: Array(all.dropFirst()), root: all.first,
            output: try String(contentsOf: folder.appendingPathComponent("stdout.txt"), encoding: .utf8),
            display: lines)
    }

    /// Waits until the display of a run started in `folder` contains `text` (a minute at most).
    static func waitForDisplay(_ text: String, in folder: URL) throws -> Bool {
        let display = folder.appendingPathComponent("display.jsonl")
        return Poll.file(display.path, contains: text)
    }

    static func shell(_ script: String, in folder: URL) throws {
        let result = try CommandRunner.run("/bin/sh", ["-c", script], currentDirectory: folder)
        #expect(result.status == 0, "\(script): \(result.standardError)")
    }

    @Test(
        "git clone: every phase ends complete; a missing repository fails with git's message",
        .enabled(if: installed("git")))
    func git() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        try Self.shell(
            "git init -q repo && cd repo && for i in $(seq 1 60); do seq $i 9000 > f$i; done && git add . && "
                + "git -c user.email=a@b -c user.name=t commit -qm one", in: folder)
        let clone = try Self.run(["git", "clone", "--progress", "file://\(folder.path)/repo", "copy"], in: folder)
        #expect(clone.status == 0)
        let receiving = try #require(clone.activities.first { $0.title == "Receiving objects" })
        #expect(receiving.status == .success && receiving.completed == receiving.total)
        #expect(clone.activities.allSatisfy { $0.status == .success })
        let missing = try Self.run(["git", "clone", "--progress", "file://\(folder.path)/none", "x"], in: folder)
        #expect(missing.status == 128)
        #expect(missing.root?.status == .failure)
        #expect(missing.root?.error?.hasPrefix("fatal: ") == true)
    }

    /// Whether `python3` has rich (`Scripts/dependencies.sh`).
    static let hasRich: Bool = (try? CommandRunner.run("/usr/bin/env", ["python3", "-c", "import rich"]))?.status == 0

    @Test(
        "rich into a pipe: the last frame it prints on standard output is its tasks, and a failure carries the exception",
        .enabled(if: hasRich))
    func rich() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        let script = AdapterFixtures.folder.appendingPathComponent("rich/rich-progress.py").path
        let two = try Self.run(["python3", script, "two"], in: folder, extra: ["--adapter", "rich"])
        #expect(two.status == 0)
        #expect(
            two.activities.map(\.description) == [
                "Downloading success 100.0/100.0 ", "Extracting success 100.0/100.0 ",
            ])
        #expect(two.output == "checkpoint saved\n")
        let failed = try Self.run(["python3", script, "failed"], in: folder, extra: ["--adapter", "rich"])
        #expect(failed.status == 1)
        #expect(failed.activities.map(\.description) == ["Uploading failure 40.0/100.0 RuntimeError: connection reset"])
    }

    @Test("pv, dd, tar and rsync report what they copied", .enabled(if: installed("pv") && installed("rsync")))
    func copies() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        try Self.shell("mkdir src && for i in $(seq 1 20); do head -c 100000 /dev/zero > src/f$i; done", in: folder)
        let pv = try Self.run(["pv", "-n", "-b", "src/f1"], in: folder)
        #expect(pv.activities.map(\.description) == ["Transferring success 100000.0/? "])
        let dd = try Self.run(["dd", "if=src/f1", "of=/dev/null", "bs=1000", "status=progress"], in: folder)
        #expect(dd.activities.map(\.description) == ["Copying success 100000.0/? "])
        let tar = try Self.run(
            ["tar", "--checkpoint=10", "--checkpoint-action=echo", "-cf", "x.tar", "src"], in: folder)
        #expect(tar.activities.first?.status == .success)
        let rsync = try Self.run(["rsync", "-a", "--info=progress2", "src/", "dst/"], in: folder)
        #expect(rsync.activities.map(\.description) == ["Synchronizing success 21.0/21.0 "])
    }

    @Test(
        "curl and wget from a local server; an HTTP error fails with curl's message",
        .enabled(if: installed("curl") && installed("wget")))
    func downloads() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        let server = try LocalServer()
        let base = server.base
        let curl = try Self.run(["curl", "-o", "a.bin", "\(base)/slow/300000/1"], in: folder)
        // curl's meter shows 292k for both: the numbers are its own, rounded to KiB.
        #expect(curl.activities.map(\.description) == ["Downloading success 299008.0/299008.0 "])
        let wget = try Self.run(["wget", "-O", "b.bin", "\(base)/slow/300000/1"], in: folder)
        #expect(wget.activities.map(\.description) == ["Downloading success 300000.0/300000.0 "])
        let missing = try Self.run(["curl", "-f", "-o", "c.bin", "\(base)/missing"], in: folder)
        #expect(missing.status == 22)
        #expect(missing.root?.error == "curl: (22) The requested URL returned error: 404 (exit status 22)")
    }

    @Test("ffmpeg -progress pipe:1 completes at progress=end", .enabled(if: installed("ffmpeg")))
    func ffmpeg() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        let result = try Self.run(
            [
                "ffmpeg", "-nostdin", "-f", "lavfi", "-i", "testsrc=duration=1:size=64x48:rate=10", "-c:v", "mpeg4",
                "-progress", "pipe:1", "-y", "out.mp4",
            ], in: folder)
        #expect(result.status == 0)
        #expect(result.activities.first?.title == "Transcoding")
        #expect(result.activities.first?.status == .success)
        #expect(!result.output.contains("progress=end"))
    }

    @Test("an external adapter on PATH; a dead one never loses the output")
    func external() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        let good = """
            #!/bin/sh
            echo '{"v":1,"type":"begin","id":"x.1","title":"Counting"}'
            cat
            echo '{"v":1,"type":"end","id":"x.1"}'
            """
        let dead = "#!/bin/sh\nexit 3\n"
        try writeProgram(good, to: folder.appendingPathComponent("activity-adapt-good"), executable: true)
        try writeProgram(dead, to: folder.appendingPathComponent("activity-adapt-dead"), executable: true)
        let result = try Self.run(
            ["sh", "-c", "echo one >&2"], in: folder, extra: ["--adapter", "good"], path: folder.path)
        #expect(result.activities.map(\.description) == ["Counting success 0.0/? "])
        let raw = try Self.run(
            ["sh", "-c", "sleep 0.2; seq 1 5000 >&2"], in: folder, extra: ["--adapter", "dead"], path: folder.path)
        #expect(raw.status == 0)
    }
}
