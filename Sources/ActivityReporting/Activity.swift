import ActivityWire
import Foundation
import Synchronization

/// A piece of work that reports its progress: downloading files, compiling a target, signing in.
///
/// Most code never creates an `Activity` itself: `withActivity(_:total:…)`
/// begins one, hands it to its body, and ends it with the body's outcome. Inside the body the
/// activity is ``current``, and activities begun there nest under it, also in `async let` child
/// tasks and task groups.
///
/// ```swift
/// try await withActivity("Downloading", total: urls.count) { activity in
///     for url in urls {
///         try await download(url)
///         activity.advance()
///     }
/// }
/// ```
///
/// An `Activity` is a handle: share it freely between threads and tasks, and call its methods from
/// any of them. `advance(by:)` is cheap enough for a tight loop (one relaxed atomic add);
/// progress is coalesced and sent by a background thread about 15 times a second, and the latest
/// value always reaches the sink with `end`.
///
/// ## Never ended
/// An activity whose last handle is released without ``end(_:message:error:)`` is ended with
/// status `failure` and the error "never ended", so that no consumer waits for it forever.
/// `withActivity` always ends its activity; only ``begin(_:total:unit:message:cancellable:blocking:attrs:parent:)``
/// can leave one open.
public final class Activity: Sendable {
    let core: ActivityCore

    init(core: ActivityCore) {
        self.core = core
    }

    deinit {
        core.end(status: .failure, message: nil, error: "never ended")
    }

    @TaskLocal static var bound: Activity?

    /// The activity whose `withActivity` body is running in this task, or `nil`.
    ///
    /// Child tasks (`async let`, task groups, `Task { }`) inherit it; `Task.detached` does not, so
    /// activities begun in a detached task are top-level (or nest under `ACTIVITY_PARENT`). Pass
    /// the activity explicitly to ``begin(_:total:unit:message:cancellable:blocking:attrs:parent:)``
    /// to nest them anyway.
    public static var current: Activity? { bound }

    /// The activity's id on the wire; give it to a child process as `ACTIVITY_PARENT` (see
    /// ``ActivitySystem/environment(for:)``).
    public var id: ActivityID { core.id }

    /// The id of the enclosing activity, or `nil` at top level.
    public var parentID: ActivityID? { core.parent }

    /// The current title.
    public var title: String { core.state.withLock { $0.title } }

    /// The amount of work done so far.
    public var completed: Double { core.state.withLock { core.completed($0) } }

    /// The amount of work in all, or `nil` when indeterminate.
    public var total: Double? { core.state.withLock { $0.total } }

    /// Whether a consumer may cancel the activity (the `cancellable` option).
    public var isCancellable: Bool { core.isCancellable }

    /// Whether the activity has been cancelled: by a consumer over the control channel (the person
    /// pressed Cancel), by ``ActivitySystem/cancel(_:)`` or by ``cancel()``. The task running its
    /// `withActivity` body is cancelled too; synchronous code that runs outside any task checks
    /// this flag. One relaxed atomic load.
    public var isCancelled: Bool { core.cancelRequested.load(ordering: .relaxed) }

    /// Whether the activity has ended.
    public var isEnded: Bool { core.ended.load(ordering: .relaxed) }

    // MARK: Progress

    /// Adds `delta` to the amount of work done. The hot path: one relaxed atomic add, no lock, no
    /// allocation, no event; the background flusher sends the new value.
    ///
    /// A negative delta is ignored, with a one-time warning on standard error (counts never go
    /// down through `advance`; use `update(completed:total:message:title:)`).
    ///
    /// ```swift
    /// for chunk in chunks { write(chunk); activity.advance(by: chunk.count) }
    /// ```
    public func advance(by delta: Int = 1) {
        if delta >= 0 {
            core.units.wrappingAdd(delta, ordering: .relaxed)
        } else {
            Self.ignoreNegative(delta)
        }
    }

    /// The cold path of `advance(by:)`, kept out of line so the hot path stays a few
    /// instructions with no register spills.
    @inline(never)
    private static func ignoreNegative(_ delta: Int) {
        Warnings.once(.negativeAdvance, "advance(by: \(delta)) ignored: counts never go down through advance")
    }

    /// Adds a fractional `delta` to the amount of work done. Whole numbers take the lock-free path
    /// of `advance(by:)`; negative and non-finite deltas are ignored with a one-time warning.
    public func advance(by delta: Double) {
        guard delta.isFinite, delta >= 0 else {
            Warnings.once(.negativeAdvance, "advance(by: \(delta)) ignored: deltas are finite and never negative")
            return
        }
        if delta.rounded() == delta, delta < 1e15 {
            core.units.wrappingAdd(Int(saturating: delta), ordering: .relaxed)
        } else {
            core.add(delta)
        }
    }

    /// Changes the absolute amount of work done, the total, the message or the title. A `nil`
    /// argument leaves that field unchanged. The change is coalesced with others and sent by the
    /// flusher, never on the caller's thread.
    ///
    /// Negative numbers are clamped to 0, non-finite ones ignored, each with a one-time warning.
    ///
    /// ```swift
    /// activity.update(completed: 0, total: Double(found.count), message: "found \(found.count) files")
    /// ```
    public func update(completed: Double? = nil, total: Double? = nil, message: String? = nil, title: String? = nil) {
        let completed = completed.flatMap { Numbers.sanitized($0, what: "completed") }
        let total: Double?? = total.flatMap { Numbers.sanitized($0, what: "total") }.map { .some($0) }
        core.set(completed: completed, total: total, message: message, title: title)
    }

    /// Changes the absolute amount of work done, and optionally the total, message and title.
    public func update(completed: Int, total: Int? = nil, message: String? = nil, title: String? = nil) {
        update(completed: Double(completed), total: total.map(Double.init), message: message, title: title)
    }

    /// Makes the activity indeterminate from now on: the amount of work is unknown again.
    public func removeTotal() {
        core.set(completed: nil, total: .some(nil), message: nil, title: nil)
    }

    /// Writes a line of text for the person watching, attached to this activity. Sent at once
    /// (never coalesced), after any progress already sent.
    ///
    /// ```swift
    /// activity.log("retrying \(url) after a timeout", level: .warning)
    /// ```
    public func log(_ message: String, level: ActivityEvent.Level = .info) {
        core.log(message, level: level)
    }

    // MARK: Cancellation

    /// Cancels the activity as a consumer would: sets ``isCancelled``, cancels the task running
    /// its `withActivity` body and calls the ``onCancel(_:)`` handlers. Returns `false`, doing
    /// nothing, when the activity is not cancellable, has ended, or was already cancelled.
    @discardableResult
    public func cancel() -> Bool {
        core.cancel()
    }

    /// Calls `handler` once when the activity is cancelled: by a consumer (the person pressed
    /// Cancel in an overlay or in `activity run --mode overlay`, and the cancel came back over the
    /// control channel), or by ``cancel()``. For work that is not a task: a delegate-driven
    /// download, a child process, a callback API.
    ///
    /// The handler runs on the thread that cancels: for a consumer's cancel, the SDK's writer
    /// thread, so keep it short and never block in it. Already cancelled, it runs at once, on the
    /// caller's thread; once the activity has ended, it never runs.
    ///
    /// ```swift
    /// let upload = Activity.begin("Uploading", total: Double(size), unit: "bytes", cancellable: true)
    /// upload.onCancel { session.invalidateAndCancel() }   // the completion then ends `upload` cancelled
    /// ```
    ///
    /// - Returns: `false` when the handler will never run: the activity is not cancellable or has
    ///   ended.
    @discardableResult
    public func onCancel(_ handler: @escaping @Sendable () -> Void) -> Bool {
        core.onCancel(handler)
    }

    /// Throws `CancellationError` when the activity or the current task has been cancelled.
    public func checkCancellation() throws {
        if isCancelled || Task.isCancelled { throw CancellationError() }
    }
}
