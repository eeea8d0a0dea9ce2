import ActivityOverlay
import ActivityWire
import Testing

@Suite("Overlay model: the issue's timing vectors")
struct OverlayVectorTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        var name: String
        var script: [(Int, OverlayInput)]
        var visible: [Range<Int>]
        var blocked: [Range<Int>]?
        var testDescription: String { name }
    }

    static let vectors: [Vector] = [
        Vector(
            name: "begin 0, end 300: never visible, input blocked on [0,300)",
            script: [(0, E.begin("a", blocking: .block)), (300, E.end("a"))],
            visible: [], blocked: [0..<300]),
        Vector(
            name: "begin 0, end 600: visible [500,1000)",
            script: [(0, E.begin("a")), (600, E.end("a"))],
            visible: [500..<1000]),
        Vector(
            name: "A 0-700 and B 800-900: one presentation, visible [500,1000)",
            script: [(0, E.begin("a")), (700, E.end("a")), (800, E.begin("b")), (900, E.end("b"))],
            visible: [500..<1000]),
        Vector(
            name: "end with success (and a message) at 600: flash until 1800",
            script: [(0, E.begin("a", blocking: .dim)), (600, E.end("a", message: "Signed in"))],
            visible: [500..<1800], blocked: [0..<1800]),
        Vector(
            name: "failure at 200: flash [200,2200)",
            script: [(0, E.begin("a")), (200, E.end("a", .failure, error: "Wrong password"))],
            visible: [200..<2200]),
        Vector(
            name: "work that never ends: the global maximum hides it",
            script: [(0, E.begin("a", blocking: .block))],
            visible: [500..<300_500], blocked: [0..<300_500]),
        Vector(
            name: "a begin during the flash reuses the presentation",
            script: [
                (0, E.begin("a")), (600, E.end("a", message: "Saved")), (1000, E.begin("b")), (1100, E.end("b")),
            ],
            visible: [500..<1100]),
        Vector(
            name: "late ticks: an input after several deadlines applies each at its own time",
            script: [(0, E.begin("a")), (1500, E.end("a")), (1500, .tick)],
            visible: [500..<1500]),
        Vector(
            name: "a clock that goes backwards is ignored",
            script: [(0, E.begin("a")), (600, .tick), (650, E.end("a"))],
            visible: [500..<1000]),
        Vector(
            name: "cancelled during the grace shows nothing",
            script: [(0, E.begin("a", blocking: .dim)), (400, E.end("a", .cancelled))],
            visible: [], blocked: [0..<400]),
        Vector(
            name: "end of scope abandons running work: a failure flash",
            script: [(0, E.begin("a")), (800, .scopeEnded)],
            visible: [500..<2800]),
    ]

    @Test("vector", arguments: vectors)
    func vector(_ vector: Vector) {
        let run = VirtualClockRun(vector.script, until: 400_000)
        #expect(run.visible == vector.visible)
        if let blocked = vector.blocked { #expect(run.blocked == blocked) }
        #expect(run.presentations.count <= 1)
        #expect(run.model.state.phase == .idle)
        #expect(run.model.nextDeadline == nil)
    }

    @Test("a second begin within the grace: visible at 500 with the latest title")
    func latestTitleWins() {
        let run = VirtualClockRun([(0, E.begin("a", "Loading")), (400, E.begin("b", "Signing in"))])
        #expect(!run.state(at: 499).isVisible)
        #expect(run.state(at: 500).isVisible)
        #expect(run.state(at: 500).title == "Signing in")
        #expect(run.announcements == ["Signing in"])
    }

    @Test("the label is the highest priority, then the latest begun")
    func priorityWins() {
        let run = VirtualClockRun([
            (0, E.begin("a", "Uploading", priority: 5)), (100, E.begin("b", "Thumbnails")),
            (200, E.begin("c", "Saving", priority: 5)), (900, E.end("c")),
        ])
        #expect(run.state(at: 600).title == "Saving")
        #expect(run.state(at: 950).title == "Uploading")
    }

    @Test("a replayed clock going back does not move time backwards")
    func timeNeverDecreases() {
        var model = OverlayModel(configuration: .vectors)
        _ = model.reduce(E.begin("a"), at: 1000)
        _ = model.reduce(.tick, at: 1600)
        #expect(model.state.isVisible)
        _ = model.reduce(E.end("a"), at: 100)
        #expect(model.time == 1600)
        #expect(model.state.phase == .holding)  // shown at 1500, ended at "1600": held until 2000
        #expect(model.nextDeadline == 2000)
        _ = model.reduce(.tick, at: 2000)
        #expect(model.state.phase == .idle)
    }

    @Test("failure at 200 flashes from 200 with the error, announced and with a haptic")
    func failureFlash() {
        let run = VirtualClockRun([
            (0, E.begin("a", "Signing in")), (200, E.end("a", .failure, error: "Wrong password")),
        ])
        let state = run.state(at: 200)
        #expect(state.phase == .flashing)
        #expect(state.content == .failure)
        #expect(state.message == "Wrong password")
        #expect(run.announcements == ["Signing in: Wrong password"])
        #expect(run.effects.map(\.effect).contains(.haptic(.failure)))
    }

    @Test("success at 600 flashes its message until 1800")
    func successFlash() {
        let run = VirtualClockRun([(0, E.begin("a", "Signing in")), (600, E.end("a", message: "Signed in"))])
        #expect(run.state(at: 600).content == .success)
        #expect(run.state(at: 1799).message == "Signed in")
        #expect(!run.state(at: 1800).isVisible)
        #expect(run.announcements == ["Signing in", "Signing in: Signed in"])
        #expect(run.effects.map(\.effect).contains(.haptic(.success)))
    }

    @Test("fractions: A 0.5 and B 0 give 0.25, ending A gives 0.5, an indeterminate C gives a spinner")
    func weightedFraction() {
        var model = OverlayModel(configuration: .vectors)
        _ = model.reduce(E.begin("a", total: 10), at: 0)
        _ = model.reduce(E.begin("b", total: 4), at: 0)
        _ = model.reduce(E.progress("a", 5), at: 100)
        #expect(model.state.content == .progress(0.25))
        _ = model.reduce(E.end("a"), at: 200)
        #expect(model.state.content == .progress(0.5))
        _ = model.reduce(E.begin("c"), at: 300)
        #expect(model.state.content == .spinner)
        #expect(model.state.accessibilityValue == "In progress")
    }

    @Test("the fraction never goes backwards while the set is unchanged")
    func fractionMonotone() {
        var model = OverlayModel(configuration: .vectors)
        _ = model.reduce(E.begin("a", total: 10), at: 0)
        _ = model.reduce(E.progress("a", 6), at: 100)
        _ = model.reduce(E.progress("a", total: .value(20)), at: 200)  // a scan found more work
        #expect(model.state.content == .progress(0.6))
        _ = model.reduce(E.progress("a", 16), at: 300)
        #expect(model.state.content == .progress(0.8))
        _ = model.reduce(E.begin("b", total: 10), at: 400)  // the set changed: may go back
        #expect(model.state.content == .progress(0.4))
    }

    @Test("under a frame, cancel goes to the cancellable work; the frame only when nothing else is cancellable")
    func cancelUnderFrame() {
        let run = VirtualClockRun([
            (0, E.begin("run", cancellable: true, frame: true)), (0, E.begin("w", cancellable: true, parent: "run")),
            (600, .cancelTapped), (650, .cancelTapped), (700, E.end("w", .cancelled)),
            (900, E.begin("plain", parent: "run")), (1000, .cancelTapped), (1100, .cancelTapped),
        ])
        #expect(run.cancelRequests == [[E.id("w")], [E.id("run")]])
        #expect(run.state(at: 620).cancel == .requested)
        #expect(run.state(at: 950).cancel == .available)
    }

    @Test("two cancel taps give one cancelRequested")
    func oneCancel() {
        let run = VirtualClockRun([
            (0, E.begin("a", cancellable: true)), (0, E.begin("b")), (600, .cancelTapped), (650, .cancelTapped),
            (700, E.end("a", .cancelled)), (800, E.end("b")),
        ])
        #expect(run.cancelRequests == [[E.id("a")]])
        #expect(run.state(at: 599).cancel == .available)
        #expect(run.state(at: 600).cancel == .requested)
        #expect(run.state(at: 700).cancel == .hidden)
    }

    @Test("a 10 s timeout gives a failure flash at 10,000")
    func timeout() {
        var configuration = OverlayConfiguration.vectors
        configuration.activityTimeoutMilliseconds = 10_000
        let run = VirtualClockRun([(0, E.begin("a", cancellable: true))], configuration: configuration)
        #expect(run.state(at: 9_999).content == .spinner)
        let state = run.state(at: 10_000)
        #expect(state.content == .failure)
        #expect(state.message == "Timed out")
        #expect(run.visible == [500..<12_000])
        #expect(run.cancelRequests == [[E.id("a")]])
    }

    @Test("duplicate and unknown ends are no-ops")
    func unknownEnds() {
        var model = OverlayModel(configuration: .vectors)
        _ = model.reduce(E.end("ghost", .failure), at: 0)
        #expect(model.state == OverlayState())
        _ = model.reduce(E.begin("a"), at: 0)
        _ = model.reduce(E.begin("b"), at: 0)
        _ = model.reduce(E.end("a"), at: 100)
        let before = model
        let effects = model.reduce(E.end("a", .failure), at: 100)
        #expect(effects.isEmpty)
        #expect(model == before)
        _ = model.reduce(E.progress("zzz", 3), at: 100)
        #expect(model == before)
    }

    @Test("blocking and dimming take the maximum asked")
    func maximumBlocking() {
        let run = VirtualClockRun([
            (0, E.begin("a", blocking: .none)), (100, E.begin("b", blocking: .dim)), (700, E.end("b")),
            (1500, E.end("a")),
        ])
        #expect(!run.state(at: 50).blocksInput)
        #expect(run.state(at: 100).blocksInput)
        #expect(!run.state(at: 100).dims)  // not visible yet
        #expect(run.state(at: 600).dims)
        #expect(!run.state(at: 800).blocksInput)
        #expect(!run.state(at: 800).dims)
    }

    @Test("nested activities follow their top-level one")
    func nested() {
        let run = VirtualClockRun([
            (0, E.begin("a", "Build", total: 2)), (100, E.begin("a.1", "Compile", parent: "a")),
            (200, E.begin("a.1.x", "cc", parent: "a.1")), (600, E.end("a.1.x", .failure)), (700, E.end("a.1")),
            (800, E.end("a")),
        ])
        #expect(run.state(at: 650).title == "Build")
        #expect(run.state(at: 650).content == .progress(0))
        #expect(run.visible == [500..<1000])
    }

    @Test("a title change is announced once, after the debounce, never per progress")
    func debouncedAnnouncement() {
        let run = VirtualClockRun([
            (0, E.begin("a", "Step 1", total: 100)), (600, E.progress("a", 10, title: "Step 2")),
            (700, E.progress("a", 20, title: "Step 3")), (800, E.progress("a", 30)), (900, E.progress("a", 40)),
            (3000, E.progress("a", 50, title: "Step 4")), (3500, E.progress("a", 60, title: "Step 3")),
            (5000, E.end("a")),
        ])
        #expect(run.announcements == ["Step 1", "Step 3"])
        #expect(run.effects.first { $0.effect == .announce("Step 3") }?.time == 1700)
    }

    @Test("tapping a flash ends it once the minimum has passed")
    func flashTapped() {
        let run = VirtualClockRun([
            (0, E.begin("a")), (600, E.end("a", .failure)), (700, .flashTapped),
        ])
        #expect(run.visible == [500..<1000])
        let late = VirtualClockRun([(0, E.begin("a")), (600, E.end("a", .failure)), (1500, .flashTapped)])
        #expect(late.visible == [500..<1500])
    }

    @Test("replace-content style")
    func replaceContent() {
        var configuration = OverlayConfiguration.vectors
        configuration.style = .replaceContent
        configuration.minimumBlocking = .block
        let run = VirtualClockRun([(0, E.begin("a")), (900, E.end("a"))], configuration: configuration)
        #expect(run.state(at: 600).replacesContent)
        #expect(!run.state(at: 600).dims)
        #expect(run.state(at: 0).blocksInput)
        #expect(!run.state(at: 100).replacesContent)
    }

    @Test("titles and messages lose whole escape sequences, controls and bidirectional controls")
    func sanitized() {
        var model = OverlayModel(configuration: .vectors)
        _ = model.reduce(.event(.begin(.init(id: E.id("a"), title: "Evil\u{1B}[2J\ttitle", message: "a\nb"))), at: 0)
        #expect(model.state.title == "Evil title")
        #expect(model.state.message == "a b")
        _ = model.reduce(
            .event(.progress(.init(id: E.id("a"), message: "\u{9B}31mred \u{202E}desrever\u{1B}]0;PWNED\u{07}"))),
            at: 10)
        #expect(model.state.message == "red desrever")
        _ = model.reduce(.event(.end(.init(id: E.id("a"), status: .failure, error: "bad\u{2066}\u{1B}[5A"))), at: 20)
        #expect(model.state.message == "bad")
    }
}
