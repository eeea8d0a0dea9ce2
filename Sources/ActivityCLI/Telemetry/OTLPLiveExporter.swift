import ActivityPOSIX
import ActivityTimeline
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

/// Sends activities to an OpenTelemetry Collector over OTLP/HTTP as they end; fed by
/// ``OTLPRenderer``, the render session's renderer for live export.
///
/// Event-driven: ``handle(_:)`` folds each event (``TimelineBuilder``, forgetting what has ended)
/// and turns every activity that ends into a span (``OTLPSpanEncoder``), on the caller's thread,
/// in microseconds. A background thread sends them in batches (``OTLPSettings/maxBatchSize``,
/// or whatever has gathered after ``OTLPSettings/scheduleDelay``). Nothing here ever waits for
/// the network on the caller's thread:
///
/// - the queue is bounded (``OTLPSettings/maxQueueSize``): when it is full the oldest spans
///   are dropped and counted;
/// - a batch is retried at most three times, with backoff (0.25, 0.5, 1 s), when the collector
///   cannot be reached or answers 429/502/503/504; after a batch fails, the next ones get one
///   try each until one gets through, so a collector that is down costs little;
/// - every request is bounded by ``OTLPSettings/timeout``;
/// - the first failure produces one warning; ``finish()`` waits a bounded time (the request
///   timeout, at most 5 s) for the rest, then says how many spans were not delivered.
final class OTLPLiveExporter: Sendable {
    private struct State: Sendable {
        var builder = TimelineBuilder(keepsEnded: false)
        /// The spans to send, the oldest dropped past ``OTLPSettings/maxQueueSize``.
        var queue: BoundedQueue<String>
        var ended = 0
        /// Spans taken by the sender and not yet delivered or failed.
        var inFlight = 0
        var closing = false
    }

    private struct Delivery: Sendable {
        var delivered = 0
        var failedSpans = 0
        var warned = false
        var failing = false
        var lastProblem: String?
    }

    let settings: OTLPSettings
    private let state: Mutex<State>
    private let delivery = Mutex(Delivery())
    private let workerDone = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    /// Wakes the sender early (a full batch, the end); `nil` when no pipe could be made, and
    /// the sender then only wakes on its schedule.
    private let wakeUp = try? WakeUpPipe()
    private let warn: @Sendable (String) -> Void
    private let post: Post
    private let writer: OTLPTraceWriter

    /// Sends one request body to the collector and says how it went.
    typealias Post = @Sendable (_ body: [UInt8]) -> HTTPPoster.Outcome

    /// - Parameters:
    ///   - post: sends a request; by default ``HTTPPoster`` posts it to the settings' endpoint
    ///     (tests collect the bodies instead).
    ///   - warn: receives the messages for the person watching (without `activity: `).
    init(settings: OTLPSettings, post: Post? = nil, warn: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.warn = warn
        self.post =
            post ?? { body in
                HTTPPoster.post(
                    body, to: settings.endpoint, contentType: "application/json", headers: settings.headers,
                    timeout: settings.timeout, tls: settings.tls)
            }
        state = Mutex(State(queue: BoundedQueue(maxCount: settings.maxQueueSize)))
        writer = OTLPTraceWriter(
            serviceName: settings.serviceName, resourceAttributes: settings.resourceAttributes,
            version: Commands.version)
        _ = HelperThread.detach(named: "activity.otlp") { [self] in run() }
    }

    /// Folds one event; activities that end become spans in the queue. Never blocks on the network.
    func handle(_ event: ActivityEvent) {
        let now = SystemClock.unixTimestamp()
        let full = state.withLock { state -> Bool in
            guard !state.closing else { return false }
            let ended = state.builder.apply(event, fallbackTime: now)
            enqueue(ended, in: &state)
            return state.queue.count >= settings.maxBatchSize
        }
        if full { wake() }
    }

    /// Ends what is open as abandoned, sends what is left and waits for it a bounded time. Safe
    /// to call more than once.
    func finish() {
        guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
        state.withLock { state in
            enqueue(state.builder.finish(at: SystemClock.unixTimestamp()), in: &state)
            state.closing = true
        }
        wake()
        let bound = min(settings.timeout, 5)
        let deadline = SystemClock.monotonicSeconds() + bound
        while !workerDone.load(ordering: .acquiring) && SystemClock.monotonicSeconds() < deadline {
            SystemClock.sleep(seconds: 0.005)
        }
        let (waiting, dropped, ended) = state.withLock {
            ($0.queue.count + $0.inFlight, $0.queue.dropped, $0.ended)
        }
        let report = delivery.withLock { $0 }
        let lost = dropped + report.failedSpans + waiting
        guard lost > 0 else { return }
        var message =
            "\(lost) of \(ended) spans were not delivered to the OpenTelemetry collector at \(settings.endpoint)"
        if !workerDone.load(ordering: .acquiring) {
            message += " (gave up waiting after \(Int(bound * 1000)) ms)"
        } else if let problem = report.lastProblem {
            message += " (\(problem))"
        }
        warn(message)
    }

    private func enqueue(_ ended: [Int], in state: inout State) {
        let encoder = OTLPSpanEncoder()
        for index in ended {
            state.queue.append(encoder.span(for: state.builder[index]))
            state.builder.release(index)
            state.ended += 1
        }
    }

    private func wake() { wakeUp?.wake() }

    /// The sender thread: waits for a full batch, the schedule delay or the end; sends.
    private func run() {
        defer { workerDone.store(true, ordering: .releasing) }
        while true {
            if let wakeUp {
                var poller = pollfd(fd: wakeUp.readEnd, events: Int16(POLLIN), revents: 0)
                _ = poll(&poller, 1, Int32(saturating: settings.scheduleDelay * 1000))
                wakeUp.drain()
            } else {
                SystemClock.sleep(seconds: settings.scheduleDelay)
            }
            while true {
                let (batch, closing) = state.withLock { state -> ([String], Bool) in
                    let batch = state.queue.removeFirst(settings.maxBatchSize)
                    state.inFlight = batch.count
                    return (batch, state.closing)
                }
                if !batch.isEmpty { send(batch) }
                state.withLock { $0.inFlight = 0 }
                if batch.count < settings.maxBatchSize {
                    if closing && batch.isEmpty { return }
                    if !closing { break }
                }
            }
        }
    }

    private func send(_ batch: [String]) {
        let body = Array(writer.request(spans: batch).utf8)
        let attempts = delivery.withLock { $0.failing } ? 1 : 4
        var outcome = HTTPPoster.Outcome.failed("not sent")
        for attempt in 0..<attempts {
            if attempt > 0 { SystemClock.sleep(seconds: 0.25 * Double(1 << (attempt - 1))) }
            outcome = post(body)
            guard outcome.isRetryable else { break }
        }
        let problem: String?
        switch outcome {
        case .delivered: problem = nil
        case .rejected(let status, _): problem = "it answered HTTP \(status)"
        case .failed(let reason): problem = reason
        }
        let warning = delivery.withLock { delivery -> String? in
            guard let problem else {
                delivery.delivered += batch.count
                delivery.failing = false
                return nil
            }
            delivery.failedSpans += batch.count
            delivery.failing = true
            delivery.lastProblem = problem
            guard !delivery.warned else { return nil }
            delivery.warned = true
            return "cannot send spans to the OpenTelemetry collector at \(settings.endpoint): \(problem); "
                + "the command goes on, and spans are dropped until the collector answers"
        }
        if let warning { warn(warning) }
    }

    deinit { wakeUp?.close() }
}
