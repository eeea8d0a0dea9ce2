import ActivityAdapters
import ActivityWire
import TestSupport
import Testing

@Suite("AdapterPipeline: lines, passthrough, coalescing, endings")
struct PipelineTests {
    @Test("an unfinished line left waiting is released as a prompt unless it is the adapter's progress")
    func unfinishedLineReleased() {
        var pipeline = AdapterPipeline(adapter: AdapterRegistry.named("ninja")!.makeAdapter(), toolName: "ninja")
        var outputs = pipeline.feed(Array("[1/3] cc a.c\r[2/3] cc b.c".utf8), from: .standardError)
        #expect(pipeline.holdsUnfinishedLine(.standardError))
        // Progress, were it to end here: held for its end.
        outputs += pipeline.releaseUnfinishedLine(.standardError)
        #expect(Adapted(outputs: outputs).passthroughText == "")
        outputs += pipeline.feed(Array("\nProceed (Y/n)? ".utf8), from: .standardError)
        #expect(Adapted(outputs: outputs).passthroughText == "")
        outputs += pipeline.releaseUnfinishedLine(.standardError)
        #expect(Adapted(outputs: outputs).passthroughText == "Proceed (Y/n)? ")
        #expect(!pipeline.holdsUnfinishedLine(.standardError))
        // The answer's echo and the line's end pass unread, even where they look like progress.
        outputs += pipeline.feed(Array("[9/9] y\r\n".utf8), from: .standardError)
        #expect(Adapted(outputs: outputs).passthroughText == "Proceed (Y/n)? [9/9] y\r\n")
        outputs += pipeline.finish(exitStatus: 0)
        #expect(Adapted(outputs: outputs).activities.count == 1)
    }

    @Test("a bare \\r before progress and a \\n after it belong to it; other \\r and \\n pass through")
    func carriageReturns() {
        let input = "a\r\n\r[1/3] x\r[2/3] y\r\nb\rc\r\r"
        let adapted = Fixture.adapt(Array(input.utf8), with: "ninja", chunkSize: 1)
        #expect(adapted.passthroughText == "a\r\nb\rc\r\r")
    }

    @Test("\\r\\n (a pseudo-terminal's newline) is one line end, wherever a read cuts it")
    func carriageReturnNewline() {
        let input =
            "Saving to: 'x'\r\n\r\n\rx  50%[=====>     ]   1.00M  1.00MB/s\r"
            + "x 100%[===========>]   2.00M  1.00MB/s    in 2s     \r\n\r\n"
            + "2026-11-30 17:08:40 (1.05 MB/s) - 'x' saved [2000000/2000000]\r\n\r\n"
        let bytes = Array(input.utf8)
        for cut in 0...bytes.count {
            var pipeline = AdapterPipeline(
                adapter: AdapterRegistry.named("wget")!.makeAdapter(), toolName: "wget", idPrefix: "t")
            let outputs =
                pipeline.feed(bytes[..<cut], from: .standardError) + pipeline.feed(bytes[cut...], from: .standardError)
                + pipeline.finish(exitStatus: 0)
            let adapted = Adapted(outputs: outputs)
            // The bar and wget's blank line after it go, as on a pipe: one blank line stays.
            #expect(
                adapted.passthroughText
                    == "Saving to: 'x'\r\n\r\n2026-11-30 17:08:40 (1.05 MB/s) - 'x' saved [2000000/2000000]\r\n\r\n",
                "cut at \(cut)")
            #expect(
                adapted.activities.map(\.description) == ["Downloading success 2000000.0/2000000.0 "], "cut at \(cut)")
        }
    }

    @Test("a line a \\r ends at the end of a chunk is read at once, not when the next chunk shows a \\n or not")
    func returnAtChunkEnd() {
        var pipeline = AdapterPipeline(adapter: AdapterRegistry.named("git")!.makeAdapter(), toolName: "git")
        let update = pipeline.feed(Array("Receiving objects:  50% (1/2)\r".utf8), from: .standardError)
        #expect(Adapted(outputs: update).activities.map(\.description) == ["Receiving objects open 1.0/2.0 "])
        let other = pipeline.feed(Array("other\r".utf8), from: .standardError)
        #expect(Adapted(outputs: other).passthroughText == "other\r")
        let newline = pipeline.feed(Array("\nnext\n".utf8), from: .standardError)
        #expect(Adapted(outputs: newline).passthroughText == "\nnext\n")
    }

    @Test("control sequences a tool adds on a terminal do not hide its progress (git's remote: lines)")
    func terminalSequences() {
        let input =
            "remote: Counting objects:  24% (73/302)\u{1B}[K\rremote: Counting objects: 100% (302/302), done.\u{1B}[K\n"
            + "remote: Compressing objects:  50% (1/2)\u{1B}[K\rremote: Compressing objects: 100% (2/2), done.\u{1B}[K\n"
        let adapted = Fixture.adapt(Array(input.utf8), with: "git", exitStatus: 0)
        #expect(
            adapted.activities.map(\.description) == [
                "remote: Counting objects success 302.0/302.0 ", "remote: Compressing objects success 2.0/2.0 ",
            ])
        #expect(adapted.passthroughText == "")
    }

    @Test("at most one progress per activity for each chunk")
    func coalescing() {
        let lines = (1...100).map { "[\($0)/100] step \($0)\n" }.joined()
        let adapted = Fixture.adapt(Array(lines.utf8), with: "ninja")
        #expect(adapted.events.count == 3)  // begin, one progress, end
        #expect(adapted.activities.map(\.description) == ["Building success 100.0/100.0 "])
    }

    @Test(
        "the exit status decides what the tool did not say",
        arguments: [(Int32?(0), "success"), (1, "failure"), (nil, "failure")])
    func exitStatus(status: Int32?, expected: String) {
        let adapted = Fixture.adapt(Array("[1/3] a\n".utf8), with: "ninja", exitStatus: status)
        #expect(adapted.activities.first?.status?.rawValue == expected)
    }

    @Test("activities nest under the given parent and carry the id prefix")
    func parentAndIDs() throws {
        let parent = try #require(ActivityID("run.1"))
        var pipeline = AdapterPipeline(
            adapter: AdapterRegistry.named("ninja")!.makeAdapter(), toolName: "ninja", parent: parent,
            idPrefix: "p")
        let outputs = pipeline.feed(Array("[1/2] a\n".utf8), from: .standardOutput)
        guard case .event(.begin(let begin)) = outputs.first else {
            Issue.record("no begin")
            return
        }
        #expect(begin.parent == parent)
        #expect(begin.id.rawValue == "p.1")
    }

    @Test(
        "run picks the adapter from the program's name",
        arguments: [
            (["git", "clone", "x"], "git"), (["/usr/bin/curl", "-o", "f", "u"], "curl"), (["wget", "u"], "wget"),
            (["pv", "-n", "f"], "pv"), (["pv", "-nb", "f"], "pv-bytes"), (["dd", "if=x"], "dd"),
            (["rsync", "-a"], "rsync"), (["tar", "cf", "x"], "tar"), (["ffmpeg", "-i", "x"], "ffmpeg"),
            (["pip3", "install", "x"], "pip"), (["python3", "-m", "pip", "install"], "pip"), (["ninja"], "ninja"),
            (["swift", "build"], "ninja"), (["apt-get", "install"], "apt"), (["apt", "install"], "apt"),
            (["dpkg", "-i", "x"], "apt"), (["sudo", "-E", "apt-get", "install"], "apt"), (["make"], "-"),
            (["swift", "test"], "-"), (["python3", "x.py"], "-"), (["cargo", "build"], "cargo"),
        ])
    func programNames(command: [String], expected: String) {
        #expect((AdapterRegistry.adapter(forCommand: command)?.name ?? "-") == expected)
    }

    @Test(
        "run picks a machine format's adapter where the command line turns the format on",
        arguments: [
            (["terraform", "apply", "-auto-approve", "-json"], "terraform"), (["tofu", "plan", "-json"], "terraform"),
            (["terraform", "apply"], "-"), (["nix", "build", "--log-format", "internal-json", ".#hello"], "nix"),
            (["nix-build", "--log-format=internal-json"], "nix"), (["nix", "build", "--log-format", "bar"], "-"),
            (["docker", "buildx", "build", "--progress=rawjson", "."], "buildkit"),
            (["buildctl", "build", "--progress", "rawjson"], "buildkit"), (["docker", "build", "."], "-"),
            (["bazel", "build", "--build_event_json_file=/dev/stderr", "//..."], "bazel"),
            (["bazel", "build", "--build_event_json_file=bep.json", "//..."], "-"),
            (["pnpm", "install", "--reporter=ndjson"], "pnpm"), (["pnpm", "install"], "-"),
        ])
    func machineFormats(command: [String], expected: String) {
        #expect((AdapterRegistry.adapter(forCommand: command)?.name ?? "-") == expected)
    }
}
