import ActivityWire

/// Runs `body` as an activity: begins it, makes it ``Activity/current`` while `body` runs, and
/// ends it with `body`'s outcome.
///
/// The activity ends with `success` when `body` returns, `cancelled` when it throws
/// `CancellationError` (or throws anything after its task or the activity was cancelled), and
/// otherwise `failure` carrying the error's description; then the error is rethrown. Activities
/// begun inside `body`, also in its `async let` child tasks and task groups, nest under this one;
/// `Task.detached` does not inherit it.
///
/// ```swift
/// try await withActivity("Downloading", total: urls.count, unit: "files") { downloads in
///     try await withThrowingTaskGroup(of: Void.self) { group in
///         for url in urls {
///             group.addTask {
///                 try await withActivity(url.lastPathComponent, unit: "bytes") { file in
///                     for try await chunk in fetch(url) { file.advance(by: chunk.count) }
///                 }
///                 downloads.advance()
///             }
///         }
///         try await group.waitForAll()
///     }
/// }
/// ```
///
/// A cancellable activity can be cancelled by a consumer in the same process
/// (``ActivitySystem/cancel(_:)``, an overlay's cancel button): the task running `body` is
/// cancelled, and `body` stops as it does on any task cancellation.
///
/// - Parameters:
///   - title: What the person waiting sees.
///   - total: The amount of work; `nil` (the default) makes the activity indeterminate.
///   - unit: What is counted; `nil` for items. `"bytes"` makes renderers show KiB/MiB and B/s.
///   - message: A first line of detail under the title.
///   - cancellable: Whether a consumer may cancel it.
///   - blocking: A hint for overlays: whether to block input or dim the screen meanwhile.
///   - attrs: Extensions, keys prefixed `x-` or in reverse-DNS form.
///   - isolation: The actor `body` runs on: the caller's, left as it is.
///   - body: The work. It receives the activity to advance, update and log to.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws, after the activity has ended.
@discardableResult
public func withActivity<Result, Failure: Error>(
    _ title: String, total: Double? = nil, unit: String? = nil, message: String? = nil, cancellable: Bool = false,
    blocking: ActivityEvent.Blocking = .none, attrs: [String: AttributeValue] = [:],
    isolation: isolated (any Actor)? = #isolation,
    _ body: (Activity) async throws(Failure) -> Result
) async throws(Failure) -> Result {
    let activity = Activity.begin(
        title, total: total, unit: unit, message: message, cancellable: cancellable, blocking: blocking, attrs: attrs
    )
    let registration = activity.core.attachCurrentTask()
    let outcome: Swift.Result<Result, Failure> = await Activity.$bound.withValue(activity) {
        do throws(Failure) {
            return .success(try await body(activity))
        } catch {
            return .failure(error)
        }
    }
    activity.core.detach(registration)
    return try activity.end(with: outcome)
}

/// Runs `body` as an activity counting `total` items; see
/// `withActivity(_:total:…)`.
///
/// ```swift
/// try await withActivity("Resizing", total: images.count) { activity in … }
/// ```
@discardableResult
public func withActivity<Result, Failure: Error>(
    _ title: String, total: Int, unit: String? = nil, message: String? = nil, cancellable: Bool = false,
    blocking: ActivityEvent.Blocking = .none, attrs: [String: AttributeValue] = [:],
    isolation: isolated (any Actor)? = #isolation,
    _ body: (Activity) async throws(Failure) -> Result
) async throws(Failure) -> Result {
    try await withActivity(
        title, total: Double(total), unit: unit, message: message, cancellable: cancellable, blocking: blocking,
        attrs: attrs, isolation: isolation, body
    )
}

/// Runs synchronous `body` as an activity: begins it, makes it ``Activity/current`` while `body`
/// runs, and ends it with `body`'s outcome (`success`, `cancelled` or `failure`), then rethrows.
///
/// When called from a task, a consumer's cancel cancels that task; code that runs outside any task
/// checks ``Activity/isCancelled`` or calls ``Activity/checkCancellation()``.
///
/// ```swift
/// try withActivity("Indexing", total: files.count) { activity in
///     for file in files {
///         try index(file)
///         activity.advance()
///     }
/// }
/// ```
@discardableResult
public func withActivity<Result, Failure: Error>(
    _ title: String, total: Double? = nil, unit: String? = nil, message: String? = nil, cancellable: Bool = false,
    blocking: ActivityEvent.Blocking = .none, attrs: [String: AttributeValue] = [:],
    _ body: (Activity) throws(Failure) -> Result
) throws(Failure) -> Result {
    let activity = Activity.begin(
        title, total: total, unit: unit, message: message, cancellable: cancellable, blocking: blocking, attrs: attrs
    )
    let registration = activity.core.attachCurrentTask()
    let outcome: Swift.Result<Result, Failure> = Activity.$bound.withValue(activity) {
        do throws(Failure) {
            return .success(try body(activity))
        } catch {
            return .failure(error)
        }
    }
    activity.core.detach(registration)
    return try activity.end(with: outcome)
}

/// Runs synchronous `body` as an activity counting `total` items; see
/// `withActivity(_:total:…)`.
@discardableResult
public func withActivity<Result, Failure: Error>(
    _ title: String, total: Int, unit: String? = nil, message: String? = nil, cancellable: Bool = false,
    blocking: ActivityEvent.Blocking = .none, attrs: [String: AttributeValue] = [:],
    _ body: (Activity) throws(Failure) -> Result
) throws(Failure) -> Result {
    try withActivity(
        title, total: Double(total), unit: unit, message: message, cancellable: cancellable, blocking: blocking,
        attrs: attrs, body
    )
}

extension Activity {
    /// Ends the activity of a `withActivity` scope with its body's outcome (`success`, or the
    /// error's status), then returns the body's value or rethrows its error.
    fileprivate func end<Result, Failure: Error>(
        with outcome: Swift.Result<Result, Failure>
    ) throws(Failure) -> Result {
        switch outcome {
        case .success(let value):
            end()
            return value
        case .failure(let error):
            end(throwing: error)
            throw error
        }
    }
}
