import ActivityOverlay
import ActivityOverlayTerminal
import ActivityRendering
import ActivityWire

/// The overlay as a render session's display, the way `--mode overlay` and `--mode overlay-jsonl`
/// drive it: each change to the model, then its state line and, at a tick, its terminal frame.
/// Its clock is its own, in milliseconds, moved on by the ticks.
final class OverlayConsumer: ActivityRenderer {
    var model: OverlayModel
    var encoder = OverlayStateEncoder()
    var milliseconds = 0
    var lastTick: Double?
    let columns: Int
    let rows: Int
    let unicode: Bool

    init(_ choices: inout Choices) {
        var configuration = OverlayConfiguration()
        configuration.style = choices.pick(OverlayConfiguration.Style.allCases)
        configuration.successFlash = choices.pick(OverlayConfiguration.SuccessFlash.allCases)
        configuration.minimumBlocking = choices.pick(ActivityEvent.Blocking.allCases)
        configuration.graceMilliseconds = choices.pick([500, 0, 1])
        configuration.activityTimeoutMilliseconds = choices.pick([nil, 0, 1000])
        model = OverlayModel(configuration: configuration)
        columns = choices.pick(StreamGenerator.widths)
        rows = choices.pick(StreamGenerator.heights)
        unicode = choices.bool()
        write(encoder.encode(model.state, time: 0))
    }

    func render(_ update: ActivityUpdate, in store: ActivityStore) {
        step(.event(update.event(in: store)))
    }

    func tick(_ store: ActivityStore, now: Double) {
        // A clock that only moves forward, by at most a day a tick.
        if let lastTick, now > lastTick { milliseconds += Int(saturating: min(now - lastTick, 86_400.0) * 1000.0) }
        lastTick = now
        step(.tick)
        if model.state.isVisible {
            let frame = OverlayTerminalFrame(
                state: model.state, columns: columns, rows: rows, unicode: unicode, color: !unicode,
                tick: milliseconds / 80)
            check(!frame.render().isEmpty, .overlay, "a visible overlay drew nothing")
        }
    }

    func finish(_ store: ActivityStore, now: Double) {
        step(.scopeEnded)
        var rounds = 0
        while let deadline = model.nextDeadline, rounds < 64 {
            milliseconds = max(milliseconds, deadline)
            step(.tick)
            rounds += 1
        }
        check(model.nextDeadline == nil, .overlay, "still a deadline after 64 at the end")
        check(!model.state.isVisible, .overlay, "visible after the stream ended and every deadline passed")
    }

    private func step(_ input: OverlayInput) {
        write(encoder.encode(model.state, time: model.time, effects: model.reduce(input, at: milliseconds)))
    }

    private func write(_ line: [UInt8]?) {
        guard let line else { return }
        check(line.last == 0x0A && line.firstIndex(of: 0x0A) == line.count - 1, .overlay, "a state line not one line")
    }
}
