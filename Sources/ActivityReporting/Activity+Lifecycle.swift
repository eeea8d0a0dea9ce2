import ActivityWire
import Foundation
import Synchronization

extension Activity {
    /// Begins an activity without a scope: the escape hatch for work that starts in one place and
    /// ends in another (a delegate callback, a state machine). End it with
    /// ``end(_:message:error:)`` or ``end(throwing:)``.
    ///
    /// Prefer `withActivity(_:total:…)`:
    /// it binds ``current`` for its body and never forgets to end. An activity begun here is not
    /// bound as ``current``; pass it as `parent` to nest others under it. If its last handle is
    /// released without an end, it ends with status `failure` and the error "never ended".
    ///
    /// ```swift
    /// let upload = Activity.begin("Uploading", total: Double(size), unit: "bytes")
    /// session.onProgress = { sent in upload.update(completed: sent) }
    /// session.onFinish = { error in if let error { upload.end(throwing: error) } else { upload.end() } }
    /// ```
    ///
    /// - Parameters:
    ///   - title: What the person waiting sees: "Downloading", "Compiling ActivityWire".
    ///   - total: The amount of work; `nil` (the default) makes the activity indeterminate.
    ///   - unit: What is counted; `nil` for items. `"bytes"` makes renderers show KiB/MiB and B/s.
    ///   - message: A first line of detail under the title.
    ///   - cancellable: Whether a consumer may cancel it (an overlay's cancel button).
    ///   - blocking: A hint for overlays: whether to block input or dim the screen meanwhile.
    ///   - attrs: Extensions, keys prefixed `x-` or in reverse-DNS form.
    ///   - parent: The enclosing activity; by default ``current``. With `nil`, the activity is
    ///     top-level (under `ACTIVITY_PARENT` when the process was given one).
    /// - Returns: The running activity.
    public static func begin(
        _ title: String, total: Double? = nil, unit: String? = nil, message: String? = nil, cancellable: Bool = false,
        blocking: ActivityEvent.Blocking = .none, attrs: [String: AttributeValue] = [:],
        parent: Activity? = Activity.current
    ) -> Activity {
        let reporter = parent?.core.reporter ?? ActivitySystem.reporter
        let id = ActivityIDGenerator.next()
        let parentID = parent?.id ?? reporter.parent
        let total = total.flatMap { Numbers.sanitized($0, what: "total") }
        let core = ActivityCore(
            id: id, parent: parentID, reporter: reporter, title: title, total: total, completed: 0, message: message,
            cancellable: cancellable
        )
        // Registered before the begin is sent: a consumer may answer the begin with a cancel at
        // once (from inside `send`, or from another thread before `send` returns), and a cancel
        // for an id not yet registered would be lost.
        Flusher.shared.register(core)
        if reporter.isEnabled {
            let begin = ActivityEvent.Begin(
                id: id, title: title, parent: parentID, total: total, unit: unit, message: message,
                cancellable: cancellable, blocking: blocking, attrs: Self.checked(attrs),
                timestamp: wallClockTimestamp()
            )
            reporter.sink.send(.begin(begin))
        }
        return Activity(core: core)
    }

    /// Ends the activity: sends its latest progress if it changed, then `end`. Ending twice is a
    /// no-op, as is every call but ``log(_:level:)`` after the end.
    ///
    /// - Parameters:
    ///   - status: `success` (the default), `failure`, `cancelled` or `skipped`. `abandoned` is
    ///     for consumers only; it is sent as `failure`.
    ///   - message: A last line of detail ("12 files, 3.4 MiB").
    ///   - error: What went wrong, for `failure`.
    public func end(_ status: ActivityEvent.Status = .success, message: String? = nil, error: String? = nil) {
        core.end(status: status == .abandoned ? .failure : status, message: message, error: error)
    }

    /// Ends the activity with the outcome of a thrown error: `cancelled` for `CancellationError`
    /// or when the task or the activity was cancelled, otherwise `failure` with the error's
    /// description.
    public func end(throwing error: any Error) {
        if error is CancellationError || Task.isCancelled || isCancelled {
            core.end(status: .cancelled, message: nil, error: nil)
        } else {
            core.end(status: .failure, message: nil, error: Self.describe(error))
        }
    }

    /// The text of an error for the `error` field.
    static func describe(_ error: any Error) -> String {
        if let error = error as? any LocalizedError, let text = error.errorDescription { return text }
        return String(describing: error)
    }

    /// `attrs` as the protocol allows them: at most 32 keys of 1 to 64 bytes, finite numbers.
    static func checked(_ attrs: [String: AttributeValue]) -> [String: AttributeValue] {
        guard !attrs.isEmpty else { return attrs }
        var result: [String: AttributeValue] = [:]
        for key in attrs.keys.sorted() {
            let value = attrs[key]!
            let keyOK = (1...WireLimits.maxAttributeKeyBytes).contains(key.utf8.count)
            let valueOK = if case .number(let n) = value { n.isFinite } else { true }
            guard keyOK, valueOK, result.count < WireLimits.maxAttributes else {
                Warnings.once(
                    .invalidAttribute,
                    "attribute \"\(key)\" left out: at most \(WireLimits.maxAttributes) keys of 1 to "
                        + "\(WireLimits.maxAttributeKeyBytes) bytes, numbers finite"
                )
                continue
            }
            result[key] = value
        }
        return result
    }
}
