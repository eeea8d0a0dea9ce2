import ActivityOverlay
import ActivityWire
import TestSupport
import Testing

@Suite("Overlay model: randomized sequences against the invariants")
struct OverlayPropertyTests {
    static let seeds: [UInt64] = Array(1...150)

    @Test("invariants hold", arguments: seeds)
    func invariants(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var configuration = OverlayConfiguration()
        configuration.graceMilliseconds = Int.random(in: 0...800, using: &rng)
        configuration.minimumShowMilliseconds = Int.random(in: 0...800, using: &rng)
        configuration.successLingerMilliseconds = Int.random(in: 0...1500, using: &rng)
        configuration.failureLingerMilliseconds = Int.random(in: 0...2500, using: &rng)
        configuration.announcementDebounceMilliseconds = Int.random(in: 0...1200, using: &rng)
        configuration.successFlash = OverlayConfiguration.SuccessFlash.allCases.randomElement(using: &rng)!
        if Bool.random(using: &rng) {
            configuration.activityTimeoutMilliseconds = Int.random(in: 1...6000, using: &rng)
        }
        configuration.maximumVisibleMilliseconds = [3000, 20_000, 300_000].randomElement(using: &rng)!
        var checker = InvariantChecker(configuration: configuration, seed: seed)

        var clock = 0
        var open: [String] = []
        var counter = 0
        for _ in 0..<250 {
            clock += [0, 1, 50, 200, 450, 900, 2500].randomElement(using: &rng)!
            var time = clock
            // Now and then, a clock that goes back.
            if Int.random(in: 0..<12, using: &rng) == 0 { time -= Int.random(in: 1...3000, using: &rng) }
            let input: OverlayInput
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<25:
                counter += 1
                let name = "a\(counter)"
                let nestedUnder = Int.random(in: 0..<5, using: &rng) == 0 ? open.randomElement(using: &rng) : nil
                open.append(name)
                let total: Double? = Bool.random(using: &rng) ? Double(Int.random(in: 0...20, using: &rng)) : nil
                input = E.begin(
                    name, "T\(Int.random(in: 0..<4, using: &rng))", total: total,
                    blocking: ActivityEvent.Blocking.allCases.randomElement(using: &rng)!,
                    cancellable: Bool.random(using: &rng),
                    priority: Bool.random(using: &rng) ? Double(Int.random(in: 0...2, using: &rng)) : nil,
                    parent: nestedUnder)
            case 25..<50:
                let name = open.randomElement(using: &rng) ?? "ghost"
                let total: ActivityEvent.Total? =
                    Int.random(in: 0..<6, using: &rng) == 0
                    ? (Bool.random(using: &rng) ? .indeterminate : .value(Double(Int.random(in: 1...30, using: &rng))))
                    : nil
                input = E.progress(
                    name, Double(Int.random(in: 0...25, using: &rng)), total: total,
                    title: Int.random(in: 0..<5, using: &rng) == 0 ? "T\(Int.random(in: 0..<4, using: &rng))" : nil)
            case 50..<72:
                let index = open.indices.randomElement(using: &rng)
                let name = index.map { open.remove(at: $0) } ?? "a\(Int.random(in: 0...counter, using: &rng))"
                input = E.end(
                    name, ActivityEvent.Status.allCases.filter { $0 != .abandoned }.randomElement(using: &rng)!,
                    message: Bool.random(using: &rng) ? "done" : nil)
            case 72..<82: input = .cancelTapped
            case 82..<88: input = .flashTapped
            case 88..<90:
                input = .scopeEnded
                open.removeAll()
            default: input = .tick
            }
            try checker.feed(input, at: time, openAfter: open.isEmpty)
        }
        for name in open { try checker.feed(E.end(name), at: clock, openAfter: true) }
        try checker.drain()
    }
}

/// Feeds a model like a controller would (ticks at deadlines) and checks every state it passes.
struct InvariantChecker {
    let configuration: OverlayConfiguration
    let seed: UInt64
    var model: OverlayModel
    var presentationStart: Int?
    var shownAt: Int?
    var allEndedAt: Int?
    var cancelled: Set<ActivityID> = []
    var lastFraction: (presentation: Int, value: Double)?
    var previous: OverlayState
    var previousTime = 0

    init(configuration: OverlayConfiguration, seed: UInt64) {
        self.configuration = configuration
        self.seed = seed
        model = OverlayModel(configuration: configuration)
        previous = model.state
    }

    var lingerBound: Int {
        max(
            configuration.minimumShowMilliseconds, configuration.successLingerMilliseconds,
            configuration.failureLingerMilliseconds)
    }

    mutating func feed(_ input: OverlayInput, at time: Int, openAfter allEnded: Bool) throws {
        while let deadline = model.nextDeadline, deadline <= time {
            try step(.tick, at: deadline)
        }
        try step(input, at: time)
        if allEnded {
            if allEndedAt == nil { allEndedAt = model.time }
        } else {
            allEndedAt = nil
        }
    }

    mutating func drain() throws {
        var ticks = 0
        while let deadline = model.nextDeadline {
            try step(.tick, at: deadline)
            ticks += 1
            try #require(ticks < 1000, "seed \(seed): deadlines never stop")
        }
        #expect(model.state.phase == .idle, "seed \(seed): stuck after everything ended")
        #expect(!model.state.isVisible && !model.state.blocksInput)
    }

    mutating func step(_ input: OverlayInput, at time: Int) throws {
        let effects = model.reduce(input, at: time)
        let state = model.state
        let now = model.time
        let context = "seed \(seed), \(input) at \(time)"

        #expect(now >= previousTime, "\(context): time went back")
        if state.presentationID != previous.presentationID { presentationStart = now }
        let isBegin: Bool = if case .event(.begin) = input { true } else { false }

        // Never shown before the grace (a failure flash says that work failed, so it may show earlier;
        // a begin during that flash then reuses the presentation).
        if state.isVisible, !previous.isVisible, state.content != .failure, let start = presentationStart {
            #expect(now >= start + configuration.graceMilliseconds, "\(context): visible before the grace")
        }
        // Never hidden before the minimum (the global maximum is the only exception).
        if state.isVisible, !previous.isVisible { shownAt = now }
        if !state.isVisible, previous.isVisible, let shown = shownAt {
            let duration = now - shown
            #expect(
                duration >= configuration.minimumShowMilliseconds
                    || duration == configuration.maximumVisibleMilliseconds,
                "\(context): hidden after \(duration) ms")
            shownAt = nil
        }
        if let shown = shownAt {
            #expect(now - shown <= configuration.maximumVisibleMilliseconds, "\(context): past the maximum")
        }
        // Never stuck after everything ended and the lingers passed.
        if let ended = allEndedAt, now > ended + lingerBound, !isBegin {
            #expect(state.phase == .idle && !state.isVisible && !state.blocksInput, "\(context): stuck")
        }
        // Consistency.
        if state.phase == .idle {
            #expect(!state.isVisible && !state.blocksInput && !state.dims && state.cancel == .hidden)
            #expect(model.nextDeadline == nil)
        } else {
            #expect(model.nextDeadline != nil, "\(context): a live overlay with no deadline")
        }
        if state.dims { #expect(state.isVisible) }
        // One cancelRequested per activity, and only from a tap or a timeout.
        for case .cancelRequested(let ids) in effects {
            #expect(!ids.isEmpty)
            for id in ids {
                #expect(!cancelled.contains(id), "\(context): \(id) cancelled twice")
                cancelled.insert(id)
            }
        }
        // Announcements only when shown, on a title change, or on success or failure.
        for case .announce in effects {
            #expect(state.isVisible, "\(context): announced while hidden")
        }
        // The fraction never moves back while the set of activities is unchanged.
        if case .progress(let fraction) = state.content, state.phase == .visible || state.phase == .pending {
            if let last = lastFraction, last.presentation == state.presentationID, !isBegin {
                #expect(fraction >= last.value, "\(context): fraction went back")
            }
            lastFraction = (state.presentationID, fraction)
        } else if isBegin || state.phase == .idle {
            lastFraction = nil
        }
        previous = state
        previousTime = now
    }
}
