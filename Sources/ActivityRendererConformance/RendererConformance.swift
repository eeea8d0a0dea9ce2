import ActivityRendering
import ActivityWire

/// A check for the authors of renderers: it drives a renderer through the protocol's event
/// sequences, as a `RenderSession` does, and returns what it found wrong.
///
/// Each ``Scenario`` gets a renderer of its own from `makeSubject`. An event is applied to an
/// `ActivityStore` and every update it makes is handed to
/// `render(_:in:)`, the problems it raises to `report(_:in:)`; passed-through output, input
/// problems and notices are handed over too, `tick(_:now:)` is called every
/// `preferredTickInterval` of the stream's time, and the stream ends as a session ends one: the
/// store ends what is still open (`abandoned`) and `finish(_:now:)` is called once.
///
/// What it checks, of the guarantees `ActivityRenderer` lists:
/// - no call blocks for long, and `render(_:in:)` keeps up (``Limits``);
/// - no control sequence of the producer's text reaches the output as it came: titles, messages,
///   units, errors, attributes, log lines, input problems and notices always, passed-through
///   output when the output is a terminal (``Subject/isTerminal``);
/// - what the renderer set on the terminal (the cursor hidden, the alternate screen, autowrap
///   off, synchronized output, bracketed paste, mouse reporting, a colour or style, the taskbar's
///   progress) is undone by the time `finish(_:now:)` returns.
///
/// A renderer that crashes or traps on the input stops the check with it, which is a failure
/// too. Whether what it draws is right is for the renderer's own tests.
///
/// ```swift
/// @Test func conforms() {
///     let problems = RendererConformance.check {
///         let output = Recording()
///         return .init(MyRenderer(output: output), isTerminal: true) { output.bytes }
///     }
///     #expect(problems.isEmpty, "\(problems)")
/// }
/// ```
public enum RendererConformance {
    /// Drives a renderer from `makeSubject` through each scenario of `scenarios`.
    ///
    /// - Parameters:
    ///   - scenarios: the scenarios to run; all of them by default.
    ///   - limits: how long the renderer's calls may take.
    ///   - makeSubject: makes a new renderer, with the means to read its output, for each scenario.
    /// - Returns: every problem found, in the order of the scenarios; empty when the renderer
    ///   conforms.
    /// - Throws: what `makeSubject` throws.
    public static func check(
        scenarios: [Scenario] = Scenario.allCases, limits: Limits = Limits(),
        _ makeSubject: () throws -> Subject
    ) rethrows -> [RendererConformanceProblem] {
        var problems: [RendererConformanceProblem] = []
        for scenario in scenarios {
            let subject = try makeSubject()
            var drive = Drive(scenario: scenario, renderer: subject.renderer, limits: limits)
            drive.run(steps(of: scenario))
            problems += drive.problems
            if let written = subject.written {
                problems += OutputCheck(scenario: scenario, isTerminal: subject.isTerminal).problems(in: written())
            }
        }
        return problems
    }
}

/// One scenario's run: the store, the stream's clock, and the time each call took.
struct Drive {
    let scenario: RendererConformance.Scenario
    let renderer: any ActivityRenderer
    let limits: RendererConformance.Limits
    var store = ActivityStore()
    var now = RendererConformance.startTime
    var nextTick: Double?
    var renderCalls = 0
    var renderTime = Duration.zero
    var problems: [RendererConformanceProblem] = []
    /// The calls already found slow: one problem says so, not one per call.
    var slowCalls: Set<String> = []
    let clock = ContinuousClock()

    init(scenario: RendererConformance.Scenario, renderer: any ActivityRenderer, limits: RendererConformance.Limits) {
        self.scenario = scenario
        self.renderer = renderer
        self.limits = limits
        self.nextTick = renderer.preferredTickInterval.map { now + $0 }
    }

    mutating func run(_ steps: [RendererConformance.Step]) {
        for (index, step) in steps.enumerated() {
            now += RendererConformance.stepInterval
            tickIfDue()
            switch step {
            case .event(var event):
                event.timestamp = now
                var updates: [ActivityUpdate] = []
                let diagnostics = store.apply(event, line: index + 1) { updates.append($0) }
                for update in updates { render(update) }
                for diagnostic in diagnostics {
                    timed("report(_:in:)") { $0.report(diagnostic, in: $1) }
                }
            case .passthrough(let bytes, let stream):
                timed("passthrough(_:to:in:)") { $0.passthrough(bytes, to: stream, in: $1) }
            case .problem(let diagnostic):
                store.count(diagnostic)
                timed("report(_:in:)") { $0.report(diagnostic, in: $1) }
            case .notice(let message):
                timed("notice(_:in:)") { $0.notice(message, in: $1) }
            }
        }
        now += RendererConformance.stepInterval
        for update in store.updates(finishingAt: now) { render(update) }
        let end = now
        timed("finish(_:now:)") { $0.finish($1, now: end) }
        if renderCalls > 0, renderTime / renderCalls > limits.meanRender {
            problems.append(
                .init(
                    scenario: scenario, kind: .slowRender,
                    message: "render(_:in:) took \(renderTime / renderCalls) on average over \(renderCalls) calls"
                        + " (at most \(limits.meanRender))"))
        }
    }

    private mutating func tickIfDue() {
        guard let due = nextTick, now >= due, let interval = renderer.preferredTickInterval else { return }
        let tickTime = now
        timed("tick(_:now:)") { $0.tick($1, now: tickTime) }
        nextTick = now + interval
    }

    private mutating func render(_ update: ActivityUpdate) {
        let took = timed("render(_:in:)") { $0.render(update, in: $1) }
        renderCalls += 1
        renderTime += took
    }

    @discardableResult
    private mutating func timed(_ call: String, _ body: (any ActivityRenderer, ActivityStore) -> Void) -> Duration {
        let renderer = self.renderer
        let store = self.store
        let took = clock.measure { body(renderer, store) }
        if took > limits.longestCall, slowCalls.insert(call).inserted {
            problems.append(
                .init(
                    scenario: scenario, kind: .slowCall,
                    message:
                        "\(call) took \(took) (at most \(limits.longestCall)); later slow calls to it are not listed"))
        }
        return took
    }
}
