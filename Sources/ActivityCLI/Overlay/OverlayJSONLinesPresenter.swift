import ActivityOverlay
import ActivityPOSIX
import ActivityTerminal
import ActivityWire
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--mode overlay-jsonl`: runs the overlay model on the events and writes its state as JSON lines
/// (`Schemas/overlay-state.v1.md`), one per change, for a UI in another process.
///
/// Changes caused by time passing (the grace ending, a flash ending) are written when they happen:
/// a thread sleeps until the model's next deadline. ``finish()`` ends the activities still open as
/// abandoned and writes the remaining states at once, so the stream always ends idle.
///
/// The presenting process may send cancel requests back on a channel of its own (``read(control:)``,
/// `--control`): `{"v":1,"type":"cancel"}` is its Cancel control, the same as Esc in the terminal
/// overlay (the model picks what is shown and cancellable); `{"v":1,"type":"cancel","id":…}`
/// names an activity, which must be open and cancellable. Either way ``onCancel`` hears of each
/// activity once at most, and a line that is not a request is named on standard error and counted.
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
        /// Open activities that began cancellable, at any depth: what a request by id may name.
        var cancellable: Set<ActivityID> = []
        /// Activities whose cancel has been asked for: never asked twice.
        var requested: Set<ActivityID> = []
        /// Control lines that were not requests.
        var badControlLines = 0
        /// Requests by id for an activity not open, not cancellable, or already asked for.
        var ignoredCancels = 0
    }

    private let core: Mutex<Core>
    private let outputFD: Int32
    private let scheduler: any OverlayScheduler
    private let wakeUp = DispatchSemaphore(value: 0)
    private let driverDone = DispatchSemaphore(value: 0)
    private let onCancel: @Sendable ([ActivityID]) -> Void
    private let control: ControlChannel?

    /// Starts the stream with the idle state.
    ///
    /// - Parameters:
    ///   - outputFD: Where the lines go; each is written with one `write(2)`. A reader that has gone
    ///     away is ignored (the caller keeps SIGPIPE ignored or handled, as `activity` does).
    ///   - configuration: The overlay's timings.
    ///   - scheduler: The clock of those timings. Only its time is taken: the presenter's own
    ///     thread waits for each deadline (the command services no main actor). Tests pass a
    ///     `ManualOverlayScheduler`, move its time and call ``tick()``.
    ///   - control: Where the presenting process sends cancel requests, read until it ends or
    ///     ``finish()``; `nil` for none.
    ///   - onCancel: Called with the activities to cancel, each once at most, from the thread that
    ///     read the request (or the one whose event or tick made the model ask).
    init(
        outputFD: Int32, configuration: OverlayConfiguration = OverlayConfiguration(),
        scheduler: any OverlayScheduler = ContinuousClockOverlayScheduler(), control: ControlChannel? = nil,
        onCancel: @escaping @Sendable ([ActivityID]) -> Void = { _ in }
    ) {
        self.outputFD = outputFD
        self.scheduler = scheduler
        self.control = control
        self.onCancel = onCancel
        var core = Core(model: OverlayModel(configuration: configuration))
        let first = core.encoder.encode(core.model.state, time: 0) ?? []
        self.core = Mutex(core)
        write(first)
        if !HelperThread.detach(named: "activity.overlay", { [self] in drive() }) {
            // No thread: no timed states, but nothing waits for a driver that never ran.
            driverDone.signal()
        }
        control?.start { [self] line, request in self.handleControl(line: line, request) }
    }

    /// Applies one event. Thread-safe.
    func handle(_ event: ActivityEvent) {
        if case .log = event { return }
        apply(.event(event))
        wakeUp.signal()
    }

    /// Applies one line of the control channel: a request, or a problem named on standard error.
    func handleControl(line: Int, _ request: Result<ActivityID?, ControlLineProblem>) {
        switch request {
        case .failure(let problem):
            core.withLock { $0.badControlLines += 1 }
            let message = "activity: --control line \(line): \(TerminalSanitizer.display(problem.message)); ignored\n"
            try? FileOutput.standardError.write(message)
        case .success(nil):
            apply(.cancelTapped)
        case .success(let id?):
            let granted = core.withLock { core -> Bool in
                guard !core.finished, core.cancellable.contains(id), core.requested.insert(id).inserted else {
                    core.ignoredCancels += 1
                    return false
                }
                return true
            }
            if granted { onCancel([id]) }
        }
    }

    /// Control lines that were not requests, and requests by id that were ignored.
    var controlCounts: (badLines: Int, ignoredCancels: Int) {
        core.withLock { ($0.badControlLines, $0.ignoredCancels) }
    }

    /// Ends the stream: open activities end as abandoned and every state up to idle is written.
    /// Idempotent; thread-safe.
    func finish() {
        control?.stop()
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

    private var now: Int { scheduler.now() }

    /// Applies the scheduler's time now, as the driver thread does when a deadline comes.
    func tick() { apply(.tick) }

    private func apply(_ input: OverlayInput) {
        let cancels = core.withLock { core -> [ActivityID] in
            guard !core.finished else { return [] }
            return step(&core, input, at: now)
        }
        if !cancels.isEmpty { onCancel(cancels) }
    }

    /// Applies an input and writes the line it causes. Called with the lock held, so lines keep
    /// their order. Returns the activities the model asks to cancel that were not asked before.
    @discardableResult
    private func step(_ core: inout Core, _ input: OverlayInput, at time: Int) -> [ActivityID] {
        if case .event(let event) = input {
            switch event {
            case .begin(let begin) where begin.cancellable: core.cancellable.insert(begin.id)
            case .end(let end): core.cancellable.remove(end.id)
            default: break
            }
        }
        let effects = core.model.reduce(input, at: time)
        if let line = core.encoder.encode(core.model.state, time: core.model.time, effects: effects) { write(line) }
        return effects.flatMap { effect -> [ActivityID] in
            guard case .cancelRequested(let ids) = effect else { return [] }
            return ids.filter { core.requested.insert($0).inserted }
        }
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

    /// The presenting process reads every state line: it is waited for, however long it stalls.
    private func write(_ bytes: [UInt8]) {
        let fd = outputFD
        _ = bytes.withUnsafeBytes { raw in
            SystemCall.writeAll(fd, raw) { _, _ in
                SystemCall.waitUntilWritable(fd, milliseconds: 100)
                return true
            }
        }
    }
}
