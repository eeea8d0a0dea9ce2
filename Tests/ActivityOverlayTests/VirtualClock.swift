import ActivityOverlay
import ActivityWire

/// Drives an ``OverlayModel`` on a virtual clock: inputs at given times, and a tick at every
/// deadline in between, as a real controller would send them.
struct VirtualClockRun {
    struct Sample {
        var time: Int
        var state: OverlayState
    }

    var samples: [Sample] = []
    var effects: [(time: Int, effect: OverlayEffect)] = []
    var model: OverlayModel

    init(
        _ script: [(Int, OverlayInput)], configuration: OverlayConfiguration = .vectors, until end: Int = 60_000
    ) {
        model = OverlayModel(configuration: configuration)
        samples.append(Sample(time: 0, state: model.state))
        var inputs = script.sorted { $0.0 < $1.0 }[...]
        while true {
            let nextInput = inputs.first?.0
            if let deadline = model.nextDeadline, deadline <= min(nextInput ?? .max, end) {
                step(.tick, at: deadline)
            } else if let (time, input) = inputs.popFirst() {
                step(input, at: time)
            } else {
                break
            }
        }
    }

    mutating func step(_ input: OverlayInput, at time: Int) {
        for effect in model.reduce(input, at: time) { effects.append((model.time, effect)) }
        samples.append(Sample(time: model.time, state: model.state))
    }

    /// The state in force at `time`: the last one recorded at or before it.
    func state(at time: Int) -> OverlayState {
        samples.last { $0.time <= time }!.state
    }

    /// The half-open intervals during which `property` held.
    func intervals(_ property: (OverlayState) -> Bool) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start: Int?
        for sample in samples {
            let holds = property(sample.state)
            if holds, start == nil { start = sample.time }
            if !holds, let begun = start {
                if begun < sample.time { result.append(begun..<sample.time) }
                start = nil
            }
        }
        if let start { result.append(start..<Int.max) }
        return result
    }

    var visible: [Range<Int>] { intervals(\.isVisible) }
    var blocked: [Range<Int>] { intervals(\.blocksInput) }
    var presentations: Set<Int> { Set(samples.filter(\.state.isVisible).map(\.state.presentationID)) }
    var announcements: [String] {
        effects.compactMap { if case .announce(let text) = $0.effect { text } else { nil } }
    }
    var cancelRequests: [[ActivityID]] {
        effects.compactMap { if case .cancelRequested(let ids) = $0.effect { ids } else { nil } }
    }
}

extension OverlayConfiguration {
    /// The timings of the vectors: grace = minimum = 500, success 1200, failure 2000.
    static var vectors: OverlayConfiguration {
        var c = OverlayConfiguration()
        c.graceMilliseconds = 500
        c.minimumShowMilliseconds = 500
        c.successLingerMilliseconds = 1200
        c.failureLingerMilliseconds = 2000
        return c
    }
}

/// Event builders for scripts.
enum E {
    static func id(_ name: String) -> ActivityID { ActivityID(name)! }

    static func begin(
        _ name: String, _ title: String? = nil, total: Double? = nil, blocking: ActivityEvent.Blocking = .none,
        cancellable: Bool = false, priority: Double? = nil, parent: String? = nil, frame: Bool = false
    ) -> OverlayInput {
        var attrs: [String: AttributeValue] = [:]
        if let priority { attrs[OverlayConfiguration.priorityAttribute] = .number(priority) }
        if frame { attrs[ActivityEvent.Begin.frameAttribute] = .bool(true) }
        return .event(
            .begin(
                .init(
                    id: id(name), title: title ?? name, parent: parent.map(id), total: total,
                    cancellable: cancellable, blocking: blocking, attrs: attrs)))
    }

    static func progress(
        _ name: String, _ completed: Double? = nil, total: ActivityEvent.Total? = nil, title: String? = nil
    )
        -> OverlayInput
    {
        .event(.progress(.init(id: id(name), completed: completed, total: total, title: title)))
    }

    static func end(
        _ name: String, _ status: ActivityEvent.Status = .success, message: String? = nil, error: String? = nil
    ) -> OverlayInput {
        .event(.end(.init(id: id(name), status: status, message: message, error: error)))
    }
}
