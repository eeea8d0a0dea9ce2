import Foundation
import TestSupport
import Testing

/// What is not an event leaves `render` and `run` exactly as it came, and a reader that goes away
/// ends them as it ends a filter in a pipeline.
@Suite("Passthrough byte for byte")
struct PassthroughTests {
    /// Some bytes that are no text at all: every byte value, a long run without a newline, CR LF.
    static let binary: Data = {
        var bytes = [UInt8](0...255) + [UInt8](repeating: UInt8(ascii: "x"), count: 150_000) + Array("\r\n{\n".utf8)
        for index in 0..<50_000 { bytes.append(UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 7)) }
        return Data(bytes)
    }()

    @Test("render: a binary file passes through unchanged")
    func renderBinary() throws {
        for mode in ["plain", "jsonl", "log"] {
            let result = try CommandRunner.activity(["render", "--mode", mode], input: Self.binary)
            #expect(result.status == 0)
            #expect(result.standardOutputData == Self.binary, "--mode \(mode) changed the bytes")
        }
    }

    @Test("render: events are taken out, everything else stays, long lines and a missing final newline too")
    func renderMixed() throws {
        let long = String(repeating: "y", count: 200_000)
        let input =
            "first line\n" + #"{"v":1,"type":"begin","id":"a","title":"A"}"# + "\n\(long)\n"
            + #"{"v":1,"type":"end","id":"a"}"# + "\n  \n{not json\nno newline at the end"
        let result = try CommandRunner.activity(["render", "--mode", "plain"], input: Data(input.utf8))
        #expect(result.status == 0)
        #expect(result.standardOutput == "first line\n\(long)\n  \n{not json\nno newline at the end")
    }

    @Test("run: 200,000 bytes without a newline stay 200,000 bytes, in pipe mode and under jsonl")
    func runLongLine() throws {
        for mode in ["plain", "jsonl"] {
            let result = try CommandRunner.activity(
                ["run", "--mode", mode, "--", "sh", "-c", #"head -c 200000 /dev/zero | tr "\0" a"#])
            #expect(result.status == 0)
            #expect(result.standardOutputData == Data(repeating: UInt8(ascii: "a"), count: 200_000), "--mode \(mode)")
        }
    }

    @Test("run: a binary file copied through the command's standard output is identical")
    func runBinary() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("blob")
        try Self.binary.write(to: file)
        let result = try CommandRunner.activity(["run", "--", "cat", file.path])
        #expect(result.status == 0)
        #expect(result.standardOutputData == Self.binary)
    }

    @Test("run: with an adapter, standard output to a pipe is data: lines that look like progress stay")
    func runAdapterLeavesOutputAlone() throws {
        // What curl -#, pv -n and git print as progress, here as the content of a downloaded file.
        let content = "q7\r6%\nEk\n5\n50\n100\nReceiving objects:  50% (1/2)\n#####   40.0%\rend"
        let script = "printf '%s' '\(content)'"
        for adapter in ["curl", "pv", "git", "wget"] {
            let result = try CommandRunner.activity(
                ["run", "--mode", "plain", "--adapter", adapter, "--", "sh", "-c", script])
            #expect(result.status == 0)
            #expect(
                result.standardOutputData == Data(content.utf8),
                "--adapter \(adapter) changed the output")
        }
    }

    /// Runs `pipeline` in bash and returns its `PIPESTATUS`.
    func pipeStatus(_ pipeline: String) throws -> [String] {
        let result = try CommandRunner.run(
            "/bin/bash", ["-c", pipeline + #"; echo "${PIPESTATUS[@]}" >&2"#], timeout: 60)
        return result.standardError.split(separator: "\n").last.map { $0.split(separator: " ").map(String.init) } ?? []
    }

    @Test("render stops at once when its reader goes away, and ends by SIGPIPE like a filter")
    func renderClosedOutput() throws {
        let status = try pipeStatus(
            "seq 1 3000000 | '\(CommandRunner.activity)' render --mode plain 2>/dev/null | head -1 >/dev/null")
        #expect(status.count == 3)
        #expect(status.dropFirst().first == "141", "render's status: \(status)")
    }

    @Test("render says so when writing its standard output fails, and fails (74), as cat does")
    func renderFullOutput() throws {
        let result = try CommandRunner.run(
            "/bin/bash",
            [
                "-c",
                #"printf 'text\n{"v":1,"type":"begin","id":"a","title":"A"}\n' | "$0" render --mode plain > /dev/full"#,
                CommandRunner.activity,
            ], timeout: 60)
        #expect(result.status == 74)
        #expect(result.standardError.contains("activity render: cannot write standard output: No space left on device"))
        // A's begin, held back as plain mode holds a begin line, ends in its end line.
        #expect(result.standardError.contains("? A  0.0s  (abandoned)"), "the display is finished first")
    }

    @Test("render: a log file that cannot be written is said once with its reason, and render exits 74")
    func renderFullLogFile() throws {
        let result = try CommandRunner.run(
            "/bin/bash",
            [
                "-c",
                #"printf '{"v":1,"type":"begin","id":"a","title":"A"}\n' | "$0" render --mode plain --log-file /dev/full"#,
                CommandRunner.activity,
            ], timeout: 60)
        #expect(result.status == 74)
        let message = "activity render: cannot write the log file /dev/full: No space left on device"
        #expect(result.standardError.components(separatedBy: message).count == 2, "\(result.standardError)")
    }

    @Test("run: output it cannot write is said once with its reason, not as the command's SIGPIPE; exit 74")
    func runFullOutput() throws {
        for command in ["echo hi", "seq 1 100000"] {
            let result = try CommandRunner.run(
                "/bin/bash", ["-c", "\"$0\" run --mode plain -- \(command) > /dev/full", CommandRunner.activity],
                timeout: 60)
            #expect(result.status == 74, "\(command)")
            let message = "activity run: cannot write standard output: No space left on device"
            #expect(result.standardError.components(separatedBy: message).count == 2, "\(result.standardError)")
            #expect(!result.standardError.contains("SIGPIPE"), "\(result.standardError)")
        }
    }

    @Test("run: when its reader goes away, the command meets the closed pipe as it would bare")
    func runClosedOutput() throws {
        let status = try pipeStatus(
            "'\(CommandRunner.activity)' run --mode plain -- yes 2>/dev/null | head -1 >/dev/null")
        #expect(status == ["141", "0"])
    }
}
