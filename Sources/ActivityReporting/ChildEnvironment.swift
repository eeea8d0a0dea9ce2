import ActivityWire
import Foundation

/// `ACTIVITY_SINK` and `ACTIVITY_PARENT`: how a process learns where to report, and under which
/// activity.
@usableFromInline
enum Environment {
    static let sinkVariable = "ACTIVITY_SINK"
    static let parentVariable = "ACTIVITY_PARENT"
    static let controlVariable = "ACTIVITY_CONTROL"

    /// The id in `ACTIVITY_PARENT`, or `nil` when unset or invalid (with a one-time warning).
    @usableFromInline
    static func parent(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> ActivityID? {
        guard let text = environment[parentVariable], !text.isEmpty else { return nil }
        guard let id = ActivityID(text) else {
            Warnings.once(
                .badParentSetting,
                "ACTIVITY_PARENT=\(Diagnostic.quoted(text)) is not a valid activity id; activities are top-level"
            )
            return nil
        }
        return id
    }

    /// The control channel `ACTIVITY_CONTROL` names (`fd:N`, `unix:PATH`), or `nil` when unset or
    /// invalid (with a one-time warning).
    static func control(_ environment: [String: String]) -> ActivitySinkDestination? {
        guard let text = environment[controlVariable], !text.isEmpty, text != "none" else { return nil }
        switch try? ActivitySinkDestination(parsing: text) {
        case let control? where control.isControlChannel: return control
        default:
            Warnings.once(
                .badControlSetting,
                "ACTIVITY_CONTROL=\(Diagnostic.quoted(text)) is not fd:N or unix:PATH; cancels are not received")
            return nil
        }
    }

    /// The reporter the environment asks for. Never fails: a bad setting turns reporting off.
    static func reporter(from environment: [String: String]) -> Reporter {
        guard let spec = environment[sinkVariable], !spec.isEmpty else { return .disabled }
        let parent = parent(environment)
        do {
            let destination = try ActivitySinkDestination(parsing: spec)
            guard destination != .none else { return Reporter(sink: NoOpActivitySink(), parent: parent) }
            return Reporter(
                sink: try JSONLinesSink(destination, control: control(environment)), parent: parent,
                childDestination: destination)
        } catch {
            Warnings.once(
                .badSinkSetting,
                "ACTIVITY_SINK=\(Diagnostic.quoted(spec)): \(error); reporting is off")
            return Reporter(sink: NoOpActivitySink(), parent: parent)
        }
    }
}

extension ActivitySystem {
    /// The variables that make a child process report under `activity`: `ACTIVITY_SINK` (the sink
    /// this process writes to, when a child can open it too) and `ACTIVITY_PARENT` (the activity's
    /// id). Merge them into the child's environment; the activities of a child that uses this SDK,
    /// the C library or `activity emit` then nest under ours.
    ///
    /// An in-process sink (a renderer in this process, an in-memory sink) gives no
    /// `ACTIVITY_SINK`: a child cannot reach it. A `fd:N` sink reaches the child only if `N` stays
    /// open in it (Foundation's `Process` closes descriptors above 2; `posix_spawn` keeps them).
    ///
    /// ```swift
    /// try await withActivity("Building") { build in
    ///     let process = Process()
    ///     process.executableURL = URL(fileURLWithPath: "/usr/bin/make")
    ///     process.environment = ActivitySystem.childEnvironment(for: build)
    ///     try process.run()
    ///     process.waitUntilExit()
    /// }
    /// ```
    ///
    /// Lines already queued (the activity's `begin` among them) are written first, waiting at most
    /// a quarter of a second, so that on a shared file or pipe the child's lines never come before
    /// the `begin` they nest under.
    ///
    /// - Parameter activity: The parent of the child's activities; by default the current one.
    ///   With `nil`, the child nests under this process's own `ACTIVITY_PARENT`, if any.
    /// - Returns: Zero, one or two variables.
    public static func environment(for activity: Activity? = Activity.current) -> [String: String] {
        let reporter = activity?.core.reporter ?? self.reporter
        var result: [String: String] = [:]
        if let destination = reporter.childDestination {
            reporter.sink.flush(timeout: 0.25)
            result[Environment.sinkVariable] = destination.description
        } else if !reporter.isEnabled {
            result[Environment.sinkVariable] = ActivitySinkDestination.none.description
        }
        if let parent = activity?.id ?? reporter.parent {
            result[Environment.parentVariable] = parent.rawValue
        }
        return result
    }

    /// This process's environment with ``environment(for:)`` merged in: ready for
    /// `Process.environment` or `posix_spawn`.
    ///
    /// - Parameters:
    ///   - activity: The parent of the child's activities; by default the current one.
    ///   - base: The environment to start from; by default this process's.
    public static func childEnvironment(
        for activity: Activity? = Activity.current,
        base: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String: String] {
        var result = base
        if activity == nil, reporter.parent == nil { result[Environment.parentVariable] = nil }
        result.merge(environment(for: activity)) { _, new in new }
        return result
    }
}

extension Activity {
    /// This process's environment, set up so that a child process's activities nest under this
    /// one; see ``ActivitySystem/childEnvironment(for:base:)``.
    ///
    /// ```swift
    /// process.environment = activity.childEnvironment
    /// ```
    public var childEnvironment: [String: String] {
        ActivitySystem.childEnvironment(for: self)
    }
}
