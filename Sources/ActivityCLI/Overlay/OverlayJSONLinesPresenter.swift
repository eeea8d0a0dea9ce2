import ActivityOverlay
import ActivityPOSIX
import ActivityWire
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `--mode overlay-jsonl`: runs the overlay model on the events and writes its state as JSON lines
/// (`Schemas/overlay-state.v1.md`), one per change, for a UI in another process.
///
/// Changes caused by time passing (the grace ending, a flash ending) are written when they happen:
/// a thread sleeps until the model's next deadline. ``finish()`` ends the activities still open as
/// abandoned and writes the remaining states at once, so the stream always ends idle.
///
/// ```swift
/// let overlay = OverlayJSONLinesPresenter(outputFD: 1)
/// for event in events { overlay.handle(event) }
/// overlay.finish()
/// ```
final class OverlayJSONLinesPresenter: Sendable {
    private struct Core: Sendable {
        var model: OverlayModel
        var encoder = OverlayStateEncoder()
        var finished = false
    }

    private let core: Mutex<Core>
    private let outputFD: Int32
    private let origin = ContinuousClock.now
    private let wakeUp = DispatchSemaphore(value: 0)
    private let driverDone = DispatchSemaphore(value: 0)

    /// Starts the stream with the idle state.
    ///
    /// - Parameters:
    ///   - outputFD: Where the lines go; each is written with one `write(2)`. A reader that has gone
    ///     away is ignored (the caller keeps SIGPIPE ignored or handled, as `activity` does).
    ///   - configuration: The overlay's timings.
    init(outputFD: Int32, configuration: OverlayConfiguration = OverlayConfiguration()) {
        self.outputFD = outputFD
        var core = Core(model: OverlayModel(configuration: configuration))
        let first = core.encoder.encode(core.model.state, time: 0) ?? []
        self.core = Mutex(core)
        write(first)
        Thread.detachNewThread { [self] in drive() }
    }

    /// Applies one event. Thread-safe.
    func handle(_ event: ActivityEvent) {
        if case .log = event { return }
        apply(.event(event))
        wakeUp.signal()
    }

    /// Ends the stream: open activities end as abandoned and every state up to idle is written.
    /// Idempotent; thread-safe.
    func finish() {
        let first = core.withLock { core -> Bool in
            guard !core.finished else { return false }
            step(&core, .scopeEnded, at: now)
            var rounds = 0
            while let deadline = core.model.nextDeadline, rounds < 64 {
                step(&core, .tick, at: deadline)
                rounds += 1
            }
            core.finished = true
            return true
        }
        guard first else { return }
        wakeUp.signal()
        driverDone.wait()
    }

    private var now: Int {
        let elapsed = ContinuousClock.now - origin
        return Int(elapsed.components.seconds) * 1000 + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
    }

    private func apply(_ input: OverlayInput) {
        core.withLock { core in
            guard !core.finished else { return }
            step(&core, input, at: now)
        }
    }

    /// Applies an input and writes the line it causes. Called with the lock held, so lines keep
    /// their order.
    private func step(_ core: inout Core, _ input: OverlayInput, at time: Int) {
        let effects = core.model.reduce(input, at: time)
        if let line = core.encoder.encode(core.model.state, time: core.model.time, effects: effects) { write(line) }
    }

    private func drive() {
        defer { driverDone.signal() }
        while true {
            let wait = core.withLock { core -> Int? in
                core.finished ? nil : core.model.nextDeadline.map { max(0, $0 - now) } ?? 60_000
            }
            guard let wait else { return }
            _ = wakeUp.wait(timeout: .now() + .milliseconds(wait))
            apply(.tick)
        }
    }

    private func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                SystemCall.write(outputFD, $0.baseAddress! + offset, bytes.count - offset)
            }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR || errno == EAGAIN {
                var fd = pollfd(fd: outputFD, events: Int16(POLLOUT), revents: 0)
                _ = poll(&fd, 1, 100)
            } else {
                return
            }
        }
    }
}
