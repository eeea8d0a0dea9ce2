import ActivityAdapters
import ActivityWire
import TestSupport
import Testing

@Suite("curl's meter: on time, never backwards, complete at 100 %")
struct CurlMeterTests {
    static let header =
        "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n"
        + "                                 Dload  Upload   Total   Spent    Left  Speed\n"

    /// One meter line as curl 7.88 prints it, `\r` first.
    static func meter(_ percent: Int, _ total: String, _ received: String) -> String {
        "\r\(percent) \(total)  \(percent) \(received)    0     0   860k      0  0:00:03  0:00:01  0:00:02  859k"
    }

    /// The completed bytes of every progress and end, in order.
    static func completions(_ outputs: [AdapterOutput]) -> [Double] {
        outputs.compactMap { output -> Double? in
            switch output {
            case .event(.begin(let begin)): begin.completed
            case .event(.progress(let progress)): progress.completed
            case .event(.end(let end)): end.completed
            default: nil
            }
        }
    }

    @Test("an update is taken when it is whole, not when the next one starts")
    func updateOnTime() {
        var pipeline = AdapterPipeline(adapter: AdapterRegistry.named("curl")!.makeAdapter(), toolName: "curl")
        _ = pipeline.feed(Array(Self.header.utf8), from: .standardError)
        for (percent, received, bytes) in [(10, "320k", 327_680.0), (41, "1216k", 1_245_184)] {
            let outputs = pipeline.feed(Array(Self.meter(percent, "2929k", received).utf8), from: .standardError)
            #expect(Self.completions(outputs) == [bytes], "\(received) is shown before the next \\r")
            #expect(outputs.allSatisfy { if case .passthrough = $0 { false } else { true } })
        }
        // A line cut before its twelfth column is not read yet.
        let cut = pipeline.feed(
            Array("\r 69 2929k   69 2048k    0     0   869k      0  0:00:03".utf8), from: .standardError)
        #expect(Self.completions(cut) == [])
        let rest = pipeline.feed(Array("  0:00:02  0:00:01  869k".utf8), from: .standardError)
        #expect(Self.completions(rest) == [2_097_152])
    }

    @Test("from 9999k to 9.7M the bytes do not go back, never pass the total, and end at it")
    func rounding() {
        let input =
            Self.header + Self.meter(90, " 11.0M", "9999k") + Self.meter(91, " 11.0M", " 9.7M")
            + Self.meter(99, " 11.0M", " 11.0M") + Self.meter(100, " 11.0M", " 11.0M") + "\n"
        for chunkSize in [1, 1 << 16] {
            let adapted = Fixture.adapt(Array(input.utf8), with: "curl", chunkSize: chunkSize, exitStatus: 0)
            let completed = Self.completions(adapted.outputs)
            #expect(completed == completed.sorted(), "never backwards (chunks of \(chunkSize))")
            let total = 11 * 1_048_576.0
            #expect(completed.allSatisfy { $0 <= total })
            #expect(adapted.activities.map(\.description) == ["Downloading success \(total)/\(total) "])
        }
    }

    @Test("a tool killed by a signal fails as killed by it, the words run uses")
    func killedBySignal() {
        var pipeline = AdapterPipeline(
            adapter: AdapterRegistry.named("curl")!.makeAdapter(), toolName: "curl", idPrefix: "t")
        var outputs = pipeline.feed(Array((Self.header + Self.meter(10, "2929k", "320k")).utf8), from: .standardError)
        outputs += pipeline.finish(exitStatus: 130, signal: "SIGINT")
        #expect(
            Adapted(outputs: outputs).activities.map(\.description) == [
                "Downloading failure 327680.0/2999296.0 curl killed by SIGINT"
            ])
        var exited = AdapterPipeline(
            adapter: AdapterRegistry.named("curl")!.makeAdapter(), toolName: "curl", idPrefix: "t")
        outputs = exited.feed(Array((Self.header + Self.meter(10, "2929k", "320k")).utf8), from: .standardError)
        outputs += exited.finish(exitStatus: 130)
        #expect(
            Adapted(outputs: outputs).activities.map(\.description) == [
                "Downloading failure 327680.0/2999296.0 curl exited with status 130"
            ])
    }

    @Test(
        "-# without a size: every frame of the moving bar is consumed, also with its = covered",
        arguments: ["#=#=#", "##-=#=-#", "  # #-=O#-  #", "##O#-  #", "  #-#O#-#", "       -=O=-  #"])
    func indeterminateBar(frame: String) {
        let input = (frame + String(repeating: " ", count: 60) + "\r").utf8
        let adapted = Fixture.adapt(Array(input), with: "curl", exitStatus: 0)
        #expect(adapted.passthroughText == "")
        #expect(adapted.activities.map(\.description) == ["Downloading success 0.0/? "])
    }
}
