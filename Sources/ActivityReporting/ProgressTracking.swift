import Foundation
import Synchronization

extension Activity {
    /// Follows a Foundation `Progress`: its `fractionCompleted` (so a tree built with
    /// `addChild(_:withPendingUnitCount:)` or `becomeCurrent(withPendingUnitCount:)` moves while
    /// its children do) scaled to its `totalUnitCount`, its indeterminate state, and its
    /// `localizedAdditionalDescription` (when not empty) as the message.
    ///
    /// The `Progress` is read by the background flusher at the display's rate (about 15 times a
    /// second) and once more at the end: swift-corelibs-foundation has no key-value observation,
    /// so polling is what works on Linux and Apple platforms alike.
    ///
    /// Cancellation goes both ways. A cancelled `Progress` ends the activity `cancelled` at the
    /// next flush (and an activity ended `success` while its `Progress` is cancelled ends
    /// `cancelled`); for a cancellable activity the task running its `withActivity` body is
    /// cancelled too. A consumer's cancel of a cancellable activity (the person pressed Esc in
    /// `activity run --mode overlay`) cancels the `Progress`, which calls its
    /// `cancellationHandler`.
    ///
    /// ```swift
    /// let download = Progress(totalUnitCount: 2)
    /// try await withActivity("Fetching", cancellable: true) { activity in
    ///     activity.track(download)
    ///     download.addChild(task.progress, withPendingUnitCount: 1)   // moves as the task does
    ///     try await run(task)
    /// }
    /// ```
    public func track(_ progress: Progress) {
        track(FoundationProgressSource(progress))
    }

    func track(_ source: some TrackedProgressSource) {
        core.track(source)
        _ = core.onCancel { source.cancel() }
    }
}

extension ActivityCore {
    func track(_ progress: any TrackedProgressSource) {
        guard pid == getpid() else { return }
        state.withLock { state in
            guard !state.isEnded else { return }
            state.tracked = progress
        }
    }

    /// Copies what the tracked progress says into `state`; `true` when it has been cancelled.
    func readTracked(_ state: inout State) -> Bool {
        guard let reading = state.tracked?.read() else { return false }
        if reading.total != state.total {
            state.total = reading.total
            state.totalChanged = true
        }
        units.store(0, ordering: .relaxed)
        state.base = reading.completed
        if let message = reading.message, message != state.message {
            state.message = message
            state.messageChanged = true
        }
        return reading.isCancelled
    }
}

/// What ``Activity/track(_:)`` follows, read under the activity's lock by the flusher.
protocol TrackedProgressSource: Sendable {
    func read() -> TrackedProgressReading
    /// Passes a consumer's cancel on.
    func cancel()
}

/// One look at a tracked progress.
struct TrackedProgressReading: Equatable {
    /// The work done, in the activity's units.
    var completed: Double
    /// The work in all; `nil` when indeterminate.
    var total: Double?
    /// Text for the activity's message; `nil` leaves the message alone.
    var message: String? = nil
    var isCancelled: Bool
}

/// A Foundation `Progress`. Apple's `Progress` is thread-safe; swift-corelibs-foundation's takes
/// no lock, so a read racing a write may see a value from just before it, which the next flush
/// corrects (the fraction is kept between 0 and 1 meanwhile).
struct FoundationProgressSource: TrackedProgressSource, @unchecked Sendable {
    let progress: Progress

    init(_ progress: Progress) {
        self.progress = progress
    }

    func read() -> TrackedProgressReading {
        let description = progress.localizedAdditionalDescription ?? ""
        let message = description.isEmpty ? nil : description
        let total = progress.totalUnitCount
        if progress.isIndeterminate || total <= 0 {
            let completed = Double(max(progress.completedUnitCount, 0))
            return .init(completed: completed, total: nil, message: message, isCancelled: progress.isCancelled)
        }
        let fraction = progress.fractionCompleted
        let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        // The unit count itself when no child adds to it: exact, never a rounding away.
        let own = Double(min(max(progress.completedUnitCount, 0), total))
        let completed = max(own, clamped * Double(total))
        return .init(completed: completed, total: Double(total), message: message, isCancelled: progress.isCancelled)
    }

    func cancel() {
        progress.cancel()
    }
}

// swift-foundation's `ProgressManager` (SF-0023) is not in the Swift 6.3 toolchains' Foundation;
// this follows the accepted proposal's API and has not been compiled or tested here.
#if compiler(>=6.4)
    @available(macOS 27, iOS 27, tvOS 27, watchOS 27, visionOS 27, *)
    extension Activity {
        /// Follows a `ProgressManager` as ``track(_:)-(Progress)`` follows a `Progress`: its
        /// `fractionCompleted` scaled to its `totalCount`, and its indeterminate state. A
        /// `ProgressManager` has no cancellation of its own (a cancelled task completes it): a
        /// consumer's cancel cancels the task running the activity's `withActivity` body.
        public func track(_ manager: ProgressManager) {
            track(manager.reporter)
        }

        /// Follows the `ProgressManager` behind `reporter` (what a library hands out to observers).
        public func track(_ reporter: ProgressReporter) {
            track(ProgressReporterSource(reporter: reporter))
        }
    }

    @available(macOS 27, iOS 27, tvOS 27, watchOS 27, visionOS 27, *)
    struct ProgressReporterSource: TrackedProgressSource {
        let reporter: ProgressReporter

        func read() -> TrackedProgressReading {
            guard !reporter.isIndeterminate, let total = reporter.totalCount, total > 0 else {
                return .init(completed: Double(max(reporter.completedCount, 0)), total: nil, isCancelled: false)
            }
            let fraction = reporter.fractionCompleted
            let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
            let own = Double(min(max(reporter.completedCount, 0), total))
            return .init(completed: max(own, clamped * Double(total)), total: Double(total), isCancelled: false)
        }

        func cancel() {}
    }
#endif
