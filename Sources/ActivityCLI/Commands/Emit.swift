import ActivityPOSIX
import ActivityReporting
import ActivityTerminal
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `activity emit begin|progress|end|log`: one event per call, for shell scripts.
///
/// The event goes to `ACTIVITY_SINK` with one `write(2)`; nothing is written when the variable is
/// unset or `none`, but `begin` still prints an id, so a script runs unchanged outside a renderer.
/// A destination that has gone away costs a warning, never the script's exit status; one that
/// fails the write (a full disk) exits with 74.
enum EmitCommand {
    static let spec = CommandSpec(
        name: "emit", summary: "report one event from a shell script", arguments: "begin|progress|end|log …",
        positionals: .choices(["begin", "progress", "end", "log"]),
        description: """
            Reports one event to ACTIVITY_SINK (set by 'activity run'). 'begin' prints the new
            activity's id; its parent is --parent, else ACTIVITY_PARENT. Without ACTIVITY_SINK nothing
            is sent, but ids are still printed, so scripts run unchanged outside a renderer. A sink
            that is gone, or a reader that does not take the event within ACTIVITY_TIMEOUT_MS
            (default 1000), costs a warning, never the script's exit status; a sink that fails the
            write (a full disk) is said with the system's reason, and emit exits with 74.
            """,
        example: """
            id=$(activity emit begin "Compiling" --total 3)
            activity emit progress "$id" --completed 1
            activity emit end "$id"
            """,
        verbs: [beginSpec, progressSpec, endSpec, logSpec])

    static func run(_ arguments: [String]) throws(CommandLineError) -> Int32 {
        let general = OptionParser(spec)
        guard let verb = arguments.first else { throw general.usageError("missing begin, progress, end or log") }
        let rest = Array(arguments.dropFirst())
        let event: ActivityEvent
        var printedID: ActivityID?
        switch verb {
        case "begin":
            let begin = try parseBegin(rest)
            event = .begin(begin)
            printedID = begin.id
        case "progress": event = .progress(try parseProgress(rest))
        case "end": event = .end(try parseEnd(rest))
        case "log": event = .log(try parseLog(rest))
        case "--help", "-h", "help": throw .helpRequested("emit")
        default: throw general.usageError("unknown event '\(verb)'; expected begin, progress, end or log")
        }
        var status = deliver(event) ? ExitCode.success : ExitCode.ioError
        // Printed even when the sink failed: a script without `set -e` carries on with its id.
        if let printedID {
            do throws(SystemError) {
                try FileOutput.standardOutput.write(printedID.rawValue + "\n")
            } catch {
                if !error.readerIsGone { status = ExitCode.ioError }
            }
        }
        return status
    }

    // MARK: - Events

    static let beginSpec = CommandSpec(
        name: "emit begin", summary: "begin an activity and print its id", arguments: "TITLE",
        optionGroups: [
            OptionGroup(
                title: "options",
                options: [
                    .value("id", "ID", help: "the activity's id (default: a new random one)"),
                    .value("parent", "ID", help: "the parent activity (default: ACTIVITY_PARENT)"),
                    .value("total", "N", help: "how much work there is; without it, indeterminate"),
                    .value("unit", "U", help: "what is counted: bytes, or any word (default: items)"),
                    .value("message", "M", help: "what is happening now"),
                    .value(
                        "cancel-signal", "SIG", values: .choices(cancelSignals.keys.sorted()),
                        help: "make it cancellable: on Cancel, 'activity run' sends SIG to this script "
                            + "(trap it, end the activity with --status cancelled)"),
                    .flag("cancellable", help: "the same as --cancel-signal, which it needs"),
                ])
        ],
        description: """
            With --cancel-signal, the person watching may cancel the activity (Esc in 'activity run
            --mode overlay'): 'activity run' then sends the signal to the script that called emit
            (its nearest ancestor that is not a subshell), once. The script traps it and decides; without the option nothing
            is ever sent to it.
            """,
        example: """
            id=$(activity emit begin "Backing up" --cancel-signal USR1)
            trap 'activity emit end "$id" --status cancelled; exit 0' USR1
            for f in *; do cp "$f" /backup/; done
            activity emit end "$id"
            """)
    static let beginParser = OptionParser(beginSpec)

    /// The signals a script may choose for a cancel: ones it can trap, and that no terminal sends
    /// on its own except INT.
    static let cancelSignals: [String: Int32] = [
        "INT": SIGINT, "TERM": SIGTERM, "HUP": SIGHUP, "USR1": SIGUSR1, "USR2": SIGUSR2,
    ]

    static func parseBegin(_ arguments: [String]) throws(CommandLineError) -> ActivityEvent.Begin {
        let parser = beginParser
        let parsed = try parser.parse(arguments)
        try parser.expectPositionals(parsed, 1...1, names: "TITLE")
        let id = try parser.id(parsed, "id") ?? ActivityID(unchecked: ActivityID.randomPrefix() + ".1")
        let parent = try parser.id(parsed, "parent") ?? inheritedParent()
        // Each call is a process of its own: the activity belongs to the script that called it.
        var attrs: [String: AttributeValue] = [ownerAttribute: .number(Double(owningProcess()))]
        var cancellable = false
        if let name = parsed.value("cancel-signal") {
            let bare = name.uppercased().hasPrefix("SIG") ? String(name.uppercased().dropFirst(3)) : name.uppercased()
            guard let signal = cancelSignals[bare] else {
                throw parser.usageError(
                    "--cancel-signal takes \(cancelSignals.keys.sorted().joined(separator: ", ")), not '\(name)'")
            }
            attrs[cancelSignalAttribute] = .number(Double(signal))
            cancellable = true
        } else if parsed.flag("cancellable") {
            throw parser.usageError(
                "--cancellable needs --cancel-signal SIG: the signal the script traps to learn of a cancel")
        }
        return ActivityEvent.Begin(
            id: id, title: parsed.positionals[0], parent: parent, total: try parser.count(parsed, "total"),
            unit: parsed.value("unit"), message: parsed.value("message"), cancellable: cancellable, attrs: attrs,
            timestamp: SystemClock.unixTimestamp())
    }

    static let progressSpec = CommandSpec(
        name: "emit progress", summary: "report how far an activity is", arguments: "ID",
        optionGroups: [
            OptionGroup(
                title: "options",
                options: [
                    .value("completed", "N", help: "how much is done, as an absolute number"),
                    .value("total", "N|none", help: "a new total; none makes it indeterminate"),
                    .value("message", "M", help: "what is happening now"),
                    .value("title", "T", help: "a new title"),
                ])
        ], description: "")
    static let progressParser = OptionParser(progressSpec)

    static func parseProgress(_ arguments: [String]) throws(CommandLineError) -> ActivityEvent.Progress {
        let parser = progressParser
        let parsed = try parser.parse(arguments)
        try parser.expectPositionals(parsed, 1...1, names: "ID")
        let total: ActivityEvent.Total? =
            parsed.value("total") == "none" ? .indeterminate : try parser.count(parsed, "total").map { .value($0) }
        return ActivityEvent.Progress(
            id: try parser.id(parsed.positionals[0], what: "ID"), completed: try parser.count(parsed, "completed"),
            total: total, message: parsed.value("message"), title: parsed.value("title"),
            timestamp: SystemClock.unixTimestamp())
    }

    static let endSpec = CommandSpec(
        name: "emit end", summary: "end an activity", arguments: "ID",
        optionGroups: [
            OptionGroup(
                title: "options",
                options: [
                    .value(
                        "status", "STATUS", values: .choices(["success", "failure", "cancelled", "skipped"]),
                        help: "how it ended (default: success)"),
                    .value("message", "M", help: "a last message"),
                    .value("error", "E", help: "what went wrong"),
                ])
        ], description: "")
    static let endParser = OptionParser(endSpec)

    static func parseEnd(_ arguments: [String]) throws(CommandLineError) -> ActivityEvent.End {
        let parser = endParser
        let parsed = try parser.parse(arguments)
        try parser.expectPositionals(parsed, 1...1, names: "ID")
        let statuses: [ActivityEvent.Status] = [.success, .failure, .cancelled, .skipped]
        return ActivityEvent.End(
            id: try parser.id(parsed.positionals[0], what: "ID"),
            status: try parser.choice(parsed, "status", among: statuses) ?? .success,
            message: parsed.value("message"), error: parsed.value("error"), timestamp: SystemClock.unixTimestamp())
    }

    static let logSpec = CommandSpec(
        name: "emit log", summary: "print a log line, under an activity or not", arguments: "MESSAGE",
        optionGroups: [
            OptionGroup(
                title: "options",
                options: [
                    .value("id", "ID", help: "the activity the line belongs to"),
                    .value(
                        "level", "LEVEL", values: .choices(ActivityEvent.Level.allCases.map(\.rawValue)),
                        help: "debug, info (default), warning or error"),
                ])
        ], description: "")
    static let logParser = OptionParser(logSpec)

    static func parseLog(_ arguments: [String]) throws(CommandLineError) -> ActivityEvent.Log {
        let parser = logParser
        let parsed = try parser.parse(arguments)
        try parser.expectPositionals(parsed, 1...1, names: "MESSAGE")
        return ActivityEvent.Log(
            message: parsed.positionals[0], id: try parser.id(parsed, "id"),
            level: try parser.choice(parsed, "level", among: ActivityEvent.Level.allCases) ?? .info,
            timestamp: SystemClock.unixTimestamp())
    }

    // MARK: - Delivery

    /// The `attrs` key naming the process that owns an activity begun by `activity emit`: the
    /// script that called it, not the short-lived `emit` process. `activity run` abandons the
    /// activity when that process is gone rather than when the connection closes.
    static let ownerAttribute = "x-activity-owner-pid"

    /// The `attrs` key holding the signal number `activity run` sends the owner on a cancel
    /// (`--cancel-signal`).
    static let cancelSignalAttribute = "x-activity-cancel-signal"

    /// `ACTIVITY_PARENT`, when it holds a valid id.
    static func inheritedParent() -> ActivityID? {
        guard let text = SystemCall.environment("ACTIVITY_PARENT"), !text.isEmpty else { return nil }
        guard let id = ActivityID(text) else {
            Console.error(
                "ignoring ACTIVITY_PARENT=\(TerminalSanitizer.escaped(text)): not a valid activity id", command: "emit")
            return nil
        }
        return id
    }

    /// Writes the event to `ACTIVITY_SINK` with the producer SDK's sink rules (the same parsing,
    /// the same `fd:N` check), without starting a thread: one connection, one write. Waits for a
    /// stalled reader or a listener that does not accept at most `ACTIVITY_TIMEOUT_MS`. On a
    /// socket it then waits, within the same time, for the reader to take the line and close the
    /// connection: `activity run` names the reporter and checks the owner it claims from the
    /// process at the other end, which must still be there.
    ///
    /// A sink that is not there, a reader that went away or stalled, costs a warning, never the
    /// script's exit status: reporting never breaks the script. A destination that fails the
    /// write (a full disk: `ENOSPC`, an I/O error) is said with the system's reason and returns
    /// `false` (emit exits with 74): the events are being lost, not just unread.
    static func deliver(_ event: ActivityEvent) -> Bool {
        // Empty is unset, as in both libraries.
        guard let spec = SystemCall.environment("ACTIVITY_SINK"), !spec.isEmpty else { return true }
        let shown = "\"" + TerminalSanitizer.escaped(spec) + "\""
        let destination: ActivitySinkDestination
        do throws(ActivitySinkError) {
            destination = try ActivitySinkDestination(parsing: spec)
        } catch {
            Console.error(
                "ACTIVITY_SINK=\(shown): \(TerminalSanitizer.escaped(error.message)); event not sent", command: "emit")
            return true
        }
        guard destination != .none else { return true }
        let timeout = timeoutSeconds()
        let deadline = SystemClock.monotonicSeconds() + timeout
        let target: LineConnection.Target
        do throws(ActivitySinkError) {
            target = try LineConnection.open(destination, connectTimeout: timeout)
        } catch {
            Console.error("event not sent: \(TerminalSanitizer.escaped(error.message))", command: "emit")
            return true
        }
        defer { if target.owned { close(target.fd) } }
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        let outcome = LineConnection.write(ActivityEventEncoder().encode(event), to: target, signals: &signals) {
            SystemClock.monotonicSeconds() >= deadline
        }
        switch outcome {
        case .written:
            LineConnection.awaitReaderClose(target, deadline: deadline)
            return true
        case .gaveUp:
            Console.error("event not sent: ACTIVITY_SINK=\(shown) did not take it within \(timeout) s", command: "emit")
            return true
        case .failed(let error) where outcome.readerWentAway:
            Console.error(
                "event not sent: ACTIVITY_SINK=\(shown): its reader went away (\(SystemError.reason(error)))",
                command: "emit")
            return true
        case .failed(let error):
            Console.error(
                "cannot write to ACTIVITY_SINK=\(shown): \(SystemError.reason(error)); event not sent", command: "emit")
            return false
        }
    }

    /// `ACTIVITY_TIMEOUT_MS` in seconds, as the C library reads it: 0 to 60000 ms, 1000 by default.
    static func timeoutSeconds() -> Double {
        guard let text = SystemCall.environment("ACTIVITY_TIMEOUT_MS") else { return 1 }
        guard let value = Int(text), (0...60_000).contains(value) else {
            Console.error(
                "ignoring ACTIVITY_TIMEOUT_MS=\(TerminalSanitizer.escaped(text)): not a number of milliseconds from 0 to 60000",
                command: "emit")
            return 1
        }
        return Double(value) / 1000
    }
}
