import ActivityWire
import Foundation
import TestSupport
import Testing

/// `activity run` with an adapter and stand-in tools the test drives: when updates are shown,
/// how a killed tool is worded, what a dying external adapter leaves.
@Suite("Adapters under activity run: timing, signals, dead external adapters")
struct RunAdapterTests {
    static let curlHeader = """
        printf '  %% Total    %% Received %% Xferd  Average Speed   Time    Time     Time  Current\\n' >&2
        printf '                                 Dload  Upload   Total   Spent    Left  Speed\\n' >&2

        """

    static func script(_ name: String, _ text: String, in folder: URL) throws {
        try writeProgram("#!/bin/sh\n" + text, to: folder.appendingPathComponent(name), executable: true)
    }

    @Test("each of curl's updates is shown before the next one is written")
    func curlUpdatesOnTime() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        // A curl that writes each update the test sends it, `\r` first as curl does.
        try Self.script(
            "curl",
            Self.curlHeader + """
                while IFS= read -r line; do
                    [ "$line" = end ] && break
                    printf '\\r%s' "$line" >&2
                done < updates
                printf '\\n' >&2
                """, in: folder)
        try LiveToolTests.shell("mkfifo updates", in: folder)
        let process = try LiveToolTests.start(["curl", "-o", "x", "http://x"], in: folder, path: folder.path)
        let updates = try #require(FileHandle(forWritingAtPath: folder.appendingPathComponent("updates").path))
        for (received, bytes) in [("320k", 327_680), ("1216k", 1_245_184), ("2048k", 2_097_152)] {
            let line = "  41 2929k   41 \(received)    0     0   922k      0  0:00:03  0:00:01  0:00:02  921k\n"
            try updates.write(contentsOf: Data(line.utf8))
            #expect(try LiveToolTests.waitForDisplay("\"completed\":\(bytes)", in: folder), "\(received) shown")
        }
        try updates.write(contentsOf: Data("end\n".utf8))
        try updates.close()
        #expect(process.wait() == 0)
    }

    @Test(
        "each of dd's, rsync's and wget's updates is shown before the next one is written",
        arguments: [
            (
                "dd", ["if=x", "of=y", "status=progress"], 2,
                [
                    ("8454144 bytes (8.5 MB, 8.1 MiB) copied, 1 s, 7.8 MB/s", 8_454_144),
                    ("16842752 bytes (17 MB, 16 MiB) copied, 2 s, 8.1 MB/s", 16_842_752),
                    ("25231360 bytes (25 MB, 24 MiB) copied, 3 s, 8.4 MB/s", 25_231_360),
                ]
            ),
            (
                "rsync", ["-a", "--info=progress2", "src/", "dst/"], 1,
                [
                    ("        300,000   1%  254.85MB/s    0:00:00 (xfr#1, to-chk=79/83)", 4),
                    ("        600,000   3%  540.95MB/s    0:00:00 (xfr#2, to-chk=78/83)", 5),
                    ("      3,900,000  19%   12.01MB/s    0:00:01 (xfr#13, to-chk=70/83)", 13),
                ]
            ),
            (
                "wget", ["--progress=bar:force", "http://x"], 2,
                [
                    ("/dev/null            34%[=====>              ]   1.00M  1015KB/s    eta 2s  ", 1_048_576),
                    ("/dev/null            69%[============>       ]   2.00M  1015KB/s    eta 1s  ", 2_097_152),
                ]
            ),
        ])
    func updatesOnTime(tool: String, arguments: [String], descriptor: Int, updates: [(String, Int)]) throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        // A tool that writes each update the test sends it, `\r` first as dd, rsync and wget do.
        try Self.script(
            tool,
            """
            while IFS= read -r line; do
                [ "$line" = end ] && break
                printf '\\r%s' "$line" >&\(descriptor)
            done < updates
            printf '\\n' >&\(descriptor)
            """, in: folder)
        try LiveToolTests.shell("mkfifo updates", in: folder)
        let process = try LiveToolTests.start([tool] + arguments, in: folder, path: folder.path)
        let fifo = try #require(FileHandle(forWritingAtPath: folder.appendingPathComponent("updates").path))
        for (line, completed) in updates {
            try fifo.write(contentsOf: Data((line + "\n").utf8))
            #expect(try LiveToolTests.waitForDisplay("\"completed\":\(completed)", in: folder), "\(line) shown")
        }
        try fifo.write(contentsOf: Data("end\n".utf8))
        try fifo.close()
        #expect(process.wait() == 0)
    }

    @Test("a tool killed by SIGINT: its activity and the command say killed by SIGINT")
    func killedBySignal() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        try Self.script(
            "curl",
            Self.curlHeader + """
                printf '\\r 10 2929k   10  320k    0     0   992k      0  0:00:02 --:--:--  0:00:02  990k' >&2
                kill -INT $$
                """, in: folder)
        let result = try LiveToolTests.run(["curl", "-o", "x", "http://x"], in: folder, path: folder.path)
        #expect(result.status == 130)
        #expect(
            result.activities.map(\.description) == ["Downloading failure 327680.0/2999296.0 curl killed by SIGINT"])
        #expect(result.root?.error == "killed by SIGINT")
    }

    @Test(
        "an external adapter that dies after some lines loses none of the tool's output",
        arguments: [
            // Reads line by line, echoes five, exits.
            "n=0\nwhile IFS= read -r line; do printf '%s\\n' \"$line\"; n=$((n+1)); [ $n = 5 ] && exit 3; done\n",
            // Reads a block, echoes its first three lines, crashes.
            "exec python3 -c 'import os,sys; d=os.read(0,8192); sys.stdout.buffer.write(b\"\\n\".join(d.split(b\"\\n\")[:3])+b\"\\n\"); sys.stdout.flush(); os.abort()'\n",
            // Echoes everything, then fails at the end.
            "cat\nexit 1\n",
        ])
    func deadExternalAdapter(adapter: String) throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        try Self.script("activity-adapt-dies", adapter, in: folder)
        let result = try LiveToolTests.run(
            ["sh", "-c", "seq 1 3000 >&2"], in: folder, extra: ["--adapter", "dies"], path: folder.path)
        #expect(result.status == 0)
        #expect(result.passedThrough == (1...3000).map { Substring(String($0)) })
    }
}
