import ActivityWire
import Foundation
import Synchronization

/// The process-wide wiring: where activities are reported, once per process.
///
/// A program that does nothing reports as the environment says (``bootstrapFromEnvironment(_:)``):
/// `ACTIVITY_SINK` names the sink (`unix:PATH`, `fd:N`, `file:PATH`, `stdout`, `stderr` or
/// `none`), `ACTIVITY_PARENT` the activity that started this process. With `ACTIVITY_SINK` unset
/// nothing is written, cheaply, like `sd_notify` without `NOTIFY_SOCKET`. A program that wants
/// something else calls one `bootstrap` at start-up, before it begins any activity:
///
/// ```swift
/// // Draw our own bars in-process, and still honour ACTIVITY_SINK for a parent renderer:
/// ActivitySystem.bootstrap(MultiplexActivitySink([myRenderer, try JSONLinesSink(.standardError)]))
/// ```
///
/// Bootstrapping twice is a mistake; the second call is ignored with a warning on standard error.
/// Activities already running keep the sink they began with.
public enum ActivitySystem {
    // Atomics, not locks: a child made by `fork()` reads them whatever the parent's threads were
    // doing. A replaced reporter is never freed, since another thread may still be using it;
    // replacing happens once in a program (and a few times in tests).
    private static let installed = Atomic<Unmanaged<Reporter>?>(nil)
    private static let bootstrapped = Atomic<Bool>(false)
    private static let exitHookInstalled = Atomic<Bool>(false)

    /// Reports to `sink`, in this process: a renderer's store, an overlay, a multiplex of several.
    ///
    /// - Parameters:
    ///   - sink: Receives every event. It must be thread-safe and must not block for long.
    ///   - parent: The parent of top-level activities; by default `ACTIVITY_PARENT`, if set.
    public static func bootstrap(_ sink: any ActivityEventSink, parent: ActivityID? = Environment.parent()) {
        install(Reporter(sink: sink, parent: parent), explicitly: true)
    }

    /// Reports JSON lines to `destination` (a file descriptor, a file, a Unix socket, standard
    /// output or standard error).
    ///
    /// ```swift
    /// try ActivitySystem.bootstrap(.file(path: "/tmp/build-events.jsonl"))
    /// ```
    ///
    /// - Throws: ``ActivitySinkError`` when the file cannot be opened or the socket not reached.
    public static func bootstrap(
        _ destination: ActivitySinkDestination, parent: ActivityID? = Environment.parent()
    ) throws(ActivitySinkError) {
        let sink: any ActivityEventSink = destination == .none ? NoOpActivitySink() : try JSONLinesSink(destination)
        install(Reporter(sink: sink, parent: parent, childDestination: destination), explicitly: true)
    }

    /// Reports as `environment` says: `ACTIVITY_SINK` and `ACTIVITY_PARENT`. This is what a program
    /// that never bootstraps gets. A bad setting or an unreachable sink turns reporting off, with
    /// one warning on standard error; it never stops the program.
    public static func bootstrapFromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) {
        install(Environment.reporter(from: environment), explicitly: true)
    }

    /// Replaces the reporter whatever came before. Only for tests: exactly one serialized suite
    /// uses it.
    static func bootstrapInternal(_ reporter: Reporter?) {
        _ = installed.exchange(reporter.map { Unmanaged.passRetained($0) }, ordering: .acquiringAndReleasing)
        bootstrapped.store(reporter != nil, ordering: .releasing)
    }

    private static func install(_ reporter: Reporter, explicitly: Bool) {
        guard bootstrapped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else {
            Warnings.once(.bootstrapTwice, "ActivitySystem.bootstrap called twice; the second call is ignored")
            return
        }
        _ = installed.exchange(Unmanaged.passRetained(reporter), ordering: .acquiringAndReleasing)
        installExitHook()
    }

    /// A reporter bound by tests for the current task, instead of the global one.
    @TaskLocal static var taskReporter: Reporter?

    /// The reporter new top-level activities use: the bootstrapped one, or the environment's.
    static var reporter: Reporter {
        if let reporter = taskReporter { return reporter }
        if let reporter = installed.load(ordering: .acquiring) { return reporter.takeUnretainedValue() }
        let fresh = Unmanaged.passRetained(Environment.reporter(from: ProcessInfo.processInfo.environment))
        let (exchanged, winner) = installed.compareExchange(
            expected: nil, desired: fresh, ordering: .acquiringAndReleasing
        )
        if exchanged {
            installExitHook()
            return fresh.takeUnretainedValue()
        }
        fresh.release()
        return winner!.takeUnretainedValue()
    }

    /// Whether activities are written anywhere.
    public static var isEnabled: Bool { reporter.isEnabled }

    // MARK: Control

    /// Cancels the live activity with this id, as a consumer's cancel button does: the activity's
    /// ``Activity/isCancelled`` becomes `true` and the task running its `withActivity` body is
    /// cancelled. Thread-safe; call it from any thread or task.
    ///
    /// ```swift
    /// overlay.onCancel = { ids in for id in ids { ActivitySystem.cancel(id) } }
    /// ```
    ///
    /// - Parameter id: The id of an activity begun in this process.
    /// - Returns: `true` when the activity was live and cancellable; `false` (doing nothing) when it
    ///   has ended, is unknown, or was not begun with `cancellable: true`.
    @discardableResult
    public static func cancel(_ id: ActivityID) -> Bool {
        Flusher.shared.core(for: id)?.cancel() ?? false
    }

    /// Writes a line of text for the person watching, attached to no activity. Use
    /// ``Activity/log(_:level:)`` for a line about one activity.
    ///
    /// ```swift
    /// ActivitySystem.log("using the cache in ~/.cache/tool", level: .debug)
    /// ```
    public static func log(_ message: String, level: ActivityEvent.Level = .info) {
        let reporter = self.reporter
        guard reporter.isEnabled else { return }
        reporter.sink.send(.log(.init(message: message, level: level, timestamp: wallClockTimestamp())))
    }

    /// Sends every activity's pending progress, then waits, at most `timeout` seconds, for the
    /// sink to write what it holds. Called automatically when the process exits normally (with a
    /// short timeout); call it yourself before `exit` from a signal handler or `_exit`.
    public static func flush(timeout: Double = 1) {
        Flusher.shared.flushAll(waiting: true)
        installed.load(ordering: .acquiring)?.takeUnretainedValue().sink.flush(timeout: timeout)
    }

    private static func installExitHook() {
        guard !exitHookInstalled.exchange(true, ordering: .relaxed) else { return }
        atexit {
            ActivitySystem.flush(timeout: 0.5)
        }
    }
}
