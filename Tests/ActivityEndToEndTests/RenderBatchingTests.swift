import Foundation
import TestSupport
import Testing

/// `activity render` writes its lines many at a time while more input is already there, and
/// everything it has before it waits for more.
@Suite("activity render: output gathered while input is waiting")
struct RenderBatchingTests {
    @Test("a slow producer's every line shows at once, before the next is written")
    func slowProducer() throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("stdout").path
        let err = folder.url.appendingPathComponent("stderr").path
        let (pid, writer) = try Self.spawnReadingFIFO(
            in: folder, CommandRunner.activity, ["render", "--mode", "plain"], stdout: out, stderr: err)
        func send(_ line: String) {
            let bytes = Array(line.utf8)
            #expect(write(writer, bytes, bytes.count) == bytes.count)
        }
        send("first line of text\n")
        #expect(Self.waitFor("first line of text\n", in: out), "a passed-through line")
        send(#"{"v":1,"type":"begin","id":"c","title":"Compile"}"# + "\n")
        #expect(Self.waitFor("Compile", in: err), "a begin line")
        send("second line of text\n")
        #expect(Self.waitFor("second line of text\n", in: out))
        send(#"{"v":1,"type":"log","id":"c","message":"halfway there"}"# + "\n")
        #expect(Self.waitFor("halfway there", in: err), "a log line")
        send(#"{"v":1,"type":"end","id":"c"}"# + "\n")
        close(writer)
        let status = CommandRunner.wait(pid, timeout: 60, what: "activity render")
        #expect(status.code == 0 && !status.killed)
        #expect(Self.contents(out) == "first line of text\nsecond line of text\n")
    }

    @Test("what the display has to say before any input shows before the first line comes")
    func warningBeforeInput() throws {
        let folder = try TemporaryFolder()
        let notes = try folder.file("notes.txt", contents: "my notes\n")
        let err = folder.url.appendingPathComponent("stderr").path
        // A history file that is something else: a warning as the session starts.
        let (pid, writer) = try Self.spawnReadingFIFO(
            in: folder, CommandRunner.activity, ["render", "--mode", "plain", "--history", notes.path],
            stdout: "/dev/null", stderr: err)
        #expect(Self.waitFor("not a history file", in: err), "the warning, with no input yet")
        close(writer)
        let status = CommandRunner.wait(pid, timeout: 60, what: "activity render")
        #expect(status.code == 0 && !status.killed)
    }

    @Test("text and the display on one file keep their order")
    func orderOnOneFile() throws {
        let input =
            [
                "text 1", #"{"v":1,"type":"begin","ts":100,"id":"c","title":"Compile"}"#, "text 2",
                #"{"v":1,"type":"log","ts":100.5,"id":"c","message":"a log line"}"#, "text 3",
                #"{"v":1,"type":"end","ts":101,"id":"c"}"#, "text 4",
            ].joined(separator: "\n") + "\n"
        let folder = try TemporaryFolder()
        let file = try folder.file("input.jsonl", contents: input)
        let result = try CommandRunner.run(
            "/bin/sh", ["-c", #""$0" render --mode plain --summary off "$1" 2>&1"#, CommandRunner.activity, file.path])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let order = ["text 1", "Compile", "text 2", "a log line", "text 3", "Compile", "text 4"]
        #expect(lines.count == order.count, "\(lines)")
        for (line, expected) in zip(lines, order) { #expect(line.contains(expected), "\(lines)") }
    }

    @Test("from a pipe, a begin line held back is written on time when nothing else comes")
    func heldBeginOnTime() throws {
        let folder = try TemporaryFolder()
        let err = folder.url.appendingPathComponent("err").path
        let (pid, writer) = try Self.spawnReadingFIFO(
            in: folder, CommandRunner.activity, ["render", "--mode", "plain"], stdout: "/dev/null", stderr: err)
        let begin = Array((#"{"v":1,"type":"begin","id":"a","title":"Slow step"}"# + "\n").utf8)
        #expect(write(writer, begin, begin.count) == begin.count)
        // Nothing else comes: the line is written once its second is up, not at the end.
        #expect(Self.waitFor("▶ Slow step", in: err), "the begin line, while the input is still open")
        let end = Array((#"{"v":1,"type":"end","id":"a"}"# + "\n").utf8)
        #expect(write(writer, end, end.count) == end.count)
        close(writer)
        let status = CommandRunner.wait(pid, timeout: 60, what: "activity render")
        #expect(status.code == 0 && !status.killed)
        #expect(Self.contents(err).contains("✔ Slow step"))
    }

    @Test("interrupted while reading ahead: nothing is written after the summary")
    func interruptedReadingAhead() throws {
        let folder = try TemporaryFolder()
        let both = folder.url.appendingPathComponent("both").path
        // Both streams on one file, as `2>&1` has them: the summary must be its last lines.
        let (pid, writer) = try Self.spawnReadingFIFO(
            in: folder, "/bin/sh", ["-c", #"exec "$0" render --mode plain 2>&1"#, CommandRunner.activity],
            stdout: both, stderr: folder.url.appendingPathComponent("shell").path)
        // Blocks of tasks, each with text between its begin and its end, fed faster than they
        // are drawn (the pipe stays full, so `render` reads ahead) until `render` has gone.
        let feeder = Thread {
            // Its writes fail with EPIPE once `render` has gone, rather than signal the tests.
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            var task = 0
            while true {
                var block = ""
                for _ in 0..<200 {
                    block += #"{"v":1,"type":"begin","id":"t\#(task)","title":"Task \#(task)"}"# + "\n"
                    for line in 0..<5 { block += "text line \(line) of task \(task)\n" }
                    block += #"{"v":1,"type":"end","id":"t\#(task)"}"# + "\n"
                    task += 1
                }
                let bytes = Array(block.utf8)
                var offset = 0
                while offset < bytes.count {
                    let written = bytes[offset...].withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else {
                        close(writer)
                        return
                    }
                    offset += written
                }
            }
        }
        feeder.start()
        #expect(Self.waitFor("text line 0 of task 1000\n", in: both), "render is under way")
        kill(pid, SIGINT)
        let status = CommandRunner.wait(pid, timeout: 60, what: "activity render")
        #expect(status.killed && status.code == SIGINT, "ended by SIGINT")
        let lines = Self.contents(both).split(separator: "\n")
        let summary = try #require(lines.firstIndex { $0.contains(" activities in ") }, "a summary")
        let late = lines[summary...].filter { $0.hasPrefix("text line") }
        #expect(late.isEmpty, "text after the summary: \(late.prefix(3))")
        // Every task whose text got out before the summary was begun in the display.
        if let last = lines[..<summary].last(where: { $0.hasPrefix("text line") }) {
            let task = last.split(separator: " ").last.map(String.init) ?? ""
            #expect(lines[..<summary].contains { $0.hasSuffix("▶ Task \(task)") }, "\(last) before its task's begin")
        }
    }

    /// Starts `executable` reading a FIFO in `folder`, and returns it with the FIFO's write end.
    static func spawnReadingFIFO(
        in folder: TemporaryFolder, _ executable: String, _ arguments: [String], stdout: String, stderr: String
    ) throws -> (pid: pid_t, writer: Int32) {
        let fifo = folder.url.appendingPathComponent("input").path
        try #require(mkfifo(fifo, 0o600) == 0)
        // Both ends open before the spawn: the child's open of the FIFO then returns at once (a
        // reader's open waits for a writer, and posix_spawn waits for the child's opens).
        let keeper = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(keeper >= 0)
        defer { close(keeper) }
        let writer = open(fifo, O_WRONLY | O_CLOEXEC)
        try #require(writer >= 0)
        let pid = try CommandRunner.spawn(
            executable, arguments, environment: CommandRunner.baseEnvironment(), stdin: fifo, stdout: stdout,
            stderr: stderr)
        return (pid, writer)
    }

    static func contents(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    /// Waits until the file holds `text`; `false` after a minute.
    static func waitFor(_ text: String, in path: String) -> Bool {
        Poll.file(path, contains: text)
    }
}
