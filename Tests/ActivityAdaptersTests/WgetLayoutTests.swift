import ActivityAdapters
import ActivityWire
import TestSupport
import Testing

@Suite("wget: every dot style, and no gap where the progress was")
struct WgetLayoutTests {
    /// The completed bytes of every event, in order.
    static func completions(_ adapted: Adapted) -> [Double] {
        adapted.events.compactMap { event -> Double? in
            switch event {
            case .progress(let progress): progress.completed
            case .end(let end): end.completed
            default: nil
            }
        }
    }

    @Test(
        "each dot line counts the bytes of its style",
        arguments: [
            ("wget/wget-dotgiga-C.txt", [33_554_432.0, 67_108_864, 70_000_000]),
            ("wget/wget-dotgiga-short-C.txt", [3_000_000]),
            ("wget/wget-dotbinary-C.txt", [393_216, 786_432, 1_000_000]),
            ("wget/wget-dotmega-C.txt", [3_145_728, 4_000_000]),
        ])
    func dotStyles(file: String, expected: [Double]) throws {
        for chunkSize in [1, 1 << 16] {
            // One chunk per line: each line's bytes are seen.
            let lines = try Fixture.bytes(file).split(separator: 0x0A, omittingEmptySubsequences: false)
            let info = AdapterRegistry.named("wget")!
            var pipeline = AdapterPipeline(adapter: info.makeAdapter(command: []), toolName: "wget", idPrefix: "t")
            var outputs: [AdapterOutput] = []
            for (index, line) in lines.enumerated() {
                let bytes = Array(line) + (index < lines.count - 1 ? [0x0A] : [])
                var offset = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + chunkSize)
                    outputs += pipeline.feed(bytes[offset..<end], from: .standardError)
                    offset = end
                }
            }
            outputs += pipeline.finish(exitStatus: 0)
            let adapted = Adapted(outputs: outputs)
            #expect(Self.completions(adapted) == expected, "chunks of \(chunkSize)")
            #expect(adapted.activities.first?.status == .success)
        }
    }

    @Test(
        "the bar and the dots leave one blank line, as wget has around them, not two",
        arguments: ["wget/wget-bar-C.txt", "wget/wget-dot-C.txt", "wget/wget-dotgiga-C.txt"])
    func blankLines(file: String) throws {
        let adapted = Fixture.adapt(try Fixture.bytes(file), with: "wget", exitStatus: 0)
        let text = adapted.passthroughText
        #expect(text.contains("Saving to: '/dev/null'\n\n20"), "\(text)")
        #expect(
            text.hasSuffix(
                "saved [\(file.contains("giga") ? "70000000/70000000" : file.contains("bar") ? "3000000/3000000" : "1500000/1500000")]\n\n"
            ))
    }
}
