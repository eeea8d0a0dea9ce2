import ActivityRendererConformance
import ActivityRendering
import ActivityWire
import Testing

/// The check fails renderers that break each guarantee: a check that cannot fail checks nothing.
@Suite("The renderer conformance check finds what a renderer gets wrong")
struct ConformanceCheckFindsProblemsTests {
    /// Writes what it is given as it came, hides the cursor and turns red, and restores nothing.
    final class CarelessRenderer: ActivityRenderer {
        var bytes: [UInt8] = []
        let writesPassthrough: Bool

        init(writesPassthrough: Bool = false) { self.writesPassthrough = writesPassthrough }

        func render(_ update: ActivityUpdate, in store: ActivityStore) {
            if update.kind == .begin { bytes += Array("\u{1B}[?25l\u{1B}[1;31m".utf8) }
            if let log = update.log { bytes += Array((log.message + "\n").utf8) }
        }

        func passthrough(_ bytes: [UInt8], to stream: StandardStream, in store: ActivityStore) {
            if writesPassthrough { self.bytes += bytes }
        }
    }

    /// Takes at least a microsecond a call, so that a limit of zero is always exceeded.
    final class BusyRenderer: ActivityRenderer {
        func render(_ update: ActivityUpdate, in store: ActivityStore) {
            let start = ContinuousClock.now
            while ContinuousClock.now - start < .microseconds(1) {}
        }
    }

    @Test("the producer's control sequences written as they came")
    func unsanitized() {
        let problems = RendererConformance.check(scenarios: [.hostileText]) {
            let renderer = CarelessRenderer()
            return .init(renderer, isTerminal: false) { renderer.bytes }
        }
        let found = problems.filter { $0.kind == .unsanitizedText }
        #expect(found.contains { $0.message.contains("conformance-event-clear") }, "\(problems)")
        // Off a terminal, C1 controls are left to the reader.
        #expect(!found.contains { $0.message.contains("-c1-") }, "\(problems)")
    }

    @Test("passed-through output on a terminal is sanitized too, C1 controls included")
    func passthroughOnTerminal() {
        let problems = RendererConformance.check(scenarios: [.hostileText]) {
            let renderer = CarelessRenderer(writesPassthrough: true)
            return .init(renderer, isTerminal: true) { renderer.bytes }
        }
        #expect(
            problems.contains { $0.kind == .unsanitizedText && $0.message.contains("conformance-passthrough-c1-clear") }
        )
    }

    @Test("a hidden cursor and a colour left set at the end")
    func notRestored() {
        let problems = RendererConformance.check(scenarios: [.nested]) {
            let renderer = CarelessRenderer()
            return .init(renderer, isTerminal: true) { renderer.bytes }
        }
        #expect(
            problems.filter { $0.kind == .notRestored }.map(\.message) == [
                #"finished with the cursor hidden ("\u{1B}[?25l")"#,
                #"finished with a colour or style set ("\u{1B}[1;31m") and no reset after it"#,
            ])
    }

    @Test("the same renderer with its modes undone at the end conforms")
    func restored() {
        final class Tidy: ActivityRenderer {
            var bytes: [UInt8] = []
            func render(_ update: ActivityUpdate, in store: ActivityStore) {
                if update.kind == .begin { bytes += Array("\u{1B}[?25l\u{1B}[1;31mx".utf8) }
            }
            func finish(_ store: ActivityStore, now: Double) { bytes += Array("\u{1B}[0m\u{1B}[?25h".utf8) }
        }
        let problems = RendererConformance.check {
            let renderer = Tidy()
            return .init(renderer, isTerminal: true) { renderer.bytes }
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("calls longer than the limits")
    func slow() {
        let problems = RendererConformance.check(
            scenarios: [.nested], limits: .init(longestCall: .zero, meanRender: .zero)
        ) { .init(BusyRenderer(), isTerminal: true, written: nil) }
        #expect(
            problems.contains { $0.kind == .slowCall && $0.message.hasPrefix("render(_:in:) took ") }, "\(problems)")
        #expect(problems.filter { $0.kind == .slowRender }.count == 1, "\(problems)")
    }

    @Test("a subject that cannot be made stops the check with its error")
    func throwingSubject() {
        struct CannotOpen: Error {}
        #expect(throws: CannotOpen.self) {
            _ = try RendererConformance.check { () throws -> RendererConformance.Subject in throw CannotOpen() }
        }
    }
}
