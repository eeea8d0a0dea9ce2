import ActivityWire
import Observation
import Synchronization

/// The overlay for an app: an observable state fed by activity events, with its timers driven.
///
/// The controller owns an ``OverlayModel``. It receives events from any thread as an
/// `ActivityEventSink` (bootstrap the SDK with it, or feed it events decoded from the wire),
/// stamps them with the scheduler's time, and applies them on the main actor. It keeps one timer,
/// at the model's ``OverlayModel/nextDeadline``, and publishes ``state`` through Observation, so a
/// SwiftUI view or a UIKit observer redraws when it changes. Cancel taps reach the producers through
/// `onCancelRequested`; announcements and haptics through ``onEffect``.
///
/// ```swift
/// let overlay = OverlayController(configuration: configuration) { ids in
///     ActivitySystem.cancel(ids)
/// }
/// // SwiftUI: LoginForm().activityOverlay(overlay)
/// // Anything: withObservationTracking { draw(overlay.state) } onChange: { … }
/// ```
@MainActor
@Observable
public final class OverlayController {
    /// The overlay as it should be drawn now.
    public private(set) var state: OverlayState

    /// Called on the main actor with every announcement and haptic, after ``state`` has changed.
    @ObservationIgnored public var onEffect: (@MainActor (OverlayEffect) -> Void)?

    @ObservationIgnored private var model: OverlayModel
    @ObservationIgnored private var timer: (deadline: Int, timer: any OverlayTimer)?
    @ObservationIgnored private nonisolated let inbox: Inbox
    @ObservationIgnored private nonisolated let scheduler: any OverlayScheduler
    @ObservationIgnored private nonisolated let onCancelRequested: @Sendable ([ActivityID]) -> Void

    /// Creates an idle overlay.
    ///
    /// - Parameters:
    ///   - configuration: The timings and style.
    ///   - scheduler: The clock and timers; tests pass a ``ManualOverlayScheduler``.
    ///   - onCancelRequested: Called, on the main actor, with the activities to cancel when the person
    ///     taps cancel or an activity times out. Pass the producer's cancellation here.
    public init(
        configuration: OverlayConfiguration = OverlayConfiguration(),
        scheduler: any OverlayScheduler = ContinuousClockOverlayScheduler(),
        onCancelRequested: @escaping @Sendable ([ActivityID]) -> Void = { _ in }
    ) {
        model = OverlayModel(configuration: configuration)
        state = model.state
        self.scheduler = scheduler
        self.onCancelRequested = onCancelRequested
        inbox = Inbox()
    }

    /// The timings and style.
    public var configuration: OverlayConfiguration { model.configuration }

    /// Applies an input now. Inputs sent from other threads with ``send(_:)`` are applied first.
    public func apply(_ input: OverlayInput) {
        inbox.append(input, at: scheduler.now())
        drain()
    }

    /// The person tapped the cancel control.
    public func cancelTapped() { apply(.cancelTapped) }

    /// The person tapped the success or failure mark.
    public func flashTapped() { apply(.flashTapped) }

    /// The event source has ended: running activities end as abandoned.
    public func scopeEnded() { apply(.scopeEnded) }

    /// Applies every input received so far, publishes the state, performs the effects and moves the
    /// timer to the next deadline.
    private func drain(ticking: Bool = false) {
        var effects: [OverlayEffect] = []
        for (input, time) in inbox.take() {
            effects += model.reduce(input, at: time)
        }
        if ticking { effects += model.reduce(.tick, at: scheduler.now()) }
        publish(effects)
    }

    private func publish(_ effects: [OverlayEffect]) {
        if state != model.state { state = model.state }
        for effect in effects {
            switch effect {
            case .cancelRequested(let ids): onCancelRequested(ids)
            case .announce, .haptic: onEffect?(effect)
            }
        }
        reschedule()
    }

    private func reschedule() {
        let deadline = model.nextDeadline
        guard deadline != timer?.deadline else { return }
        timer?.timer.cancel()
        timer = deadline.map { deadline in
            (deadline, scheduler.schedule(at: deadline) { [weak self] in self?.fire(deadline) })
        }
    }

    private func fire(_ deadline: Int) {
        guard timer?.deadline == deadline else { return }  // superseded
        timer = nil
        drain(ticking: true)
    }

    /// Inputs waiting for the main actor, stamped with their arrival time.
    private final class Inbox: Sendable {
        private let items = Mutex<[(OverlayInput, Int)]>([])

        /// Appends an input; returns whether the inbox was empty (a drain must be enqueued).
        @discardableResult
        func append(_ input: OverlayInput, at time: Int) -> Bool {
            items.withLock { items in
                items.append((input, time))
                return items.count == 1
            }
        }

        func take() -> [(OverlayInput, Int)] {
            items.withLock { items in
                defer { items = [] }
                return items
            }
        }
    }
}

extension OverlayController: ActivityEventSink {
    /// Receives an event from any thread. It is stamped with the scheduler's time now and applied on
    /// the main actor shortly after.
    public nonisolated func send(_ event: ActivityEvent) {
        if case .log = event { return }
        if inbox.append(.event(event), at: scheduler.now()) {
            scheduler.enqueue { [weak self] in self?.drain() }
        }
    }
}
