import ActivityTerminal
import ActivityWire

/// The closing summary: a tally, the slowest top-level steps with their share of the total time,
/// and every failure with its path, so a long log ends with what a reader wants to know.
///
/// ```
/// 6 activities in 18.8s: 4 succeeded, 2 failed
/// slowest steps:
///   ✔ Fetch sources  10.1s  54%
///   ✖ Build           6.3s  34%
/// failures:
///   ✖ Build › Compile  file12.c:40: undefined symbol 'main'
/// ```
extension TerminalRenderer {
    /// Notes a finished activity for the summary: a top-level step (its own title at the top,
    /// or just under a frame), a failure at any depth.
    func noteForSummary(_ update: ActivityUpdate, _ activity: ActivityState, in store: ActivityStore) {
        guard configuration.summary == .full else { return }
        let status = activity.status ?? .abandoned
        if !activity.isFrame && (activity.depth == 0 || store.isFrame(activity.parent)) {
            summaryNotes.note(
                step: .init(title: activity.title, duration: activity.duration(at: update.timestamp), status: status))
        }
        if status == .success, let usual = usualDuration(of: activity, in: store) {
            let duration = activity.duration(at: update.timestamp)
            if ActivityHistory.isSlower(duration, thanUsual: usual) {
                summaryNotes.note(
                    slower: .init(path: pathTitle(of: activity, in: store), duration: duration, usual: usual))
            }
        }
        if status == .failure {
            summaryNotes.note(
                failure: .init(
                    path: pathTitle(of: activity, in: store), error: activity.error,
                    tail: tails.last(Self.summaryTailLines, of: activity.sequence)))
        }
    }

    /// The closing summary's lines; none when there is nothing to sum up or it is turned off.
    func summaryLines(_ summary: ActivitySummary) -> [StyledLine] {
        guard configuration.summary != .off, let tally = summaryLine(summary) else { return [] }
        var lines = [tally]
        guard configuration.summary == .full else { return lines }
        let notes = summaryNotes
        // -q keeps to failures.
        if notes.steps > 1 && !notes.slowest.isEmpty && configuration.verbosity != .quiet {
            lines.append(StyledLine("slowest steps:", .detail))
            let durations = notes.slowest.map { Formatting.duration($0.duration) }
            let durationWidth = durations.map(\.count).max() ?? 0
            // Each step on one row: the title is cut to what the mark, time and share leave.
            let room = max(8, min(40, lineWidth - 4 - 2 - durationWidth - 6))
            let titles = notes.slowest.map { DisplayWidth.truncate($0.title, to: room, ellipsis: style.ellipsis) }
            let titleWidth = titles.map(DisplayWidth.of).max() ?? 0
            for (index, step) in notes.slowest.enumerated() {
                let mark = mark(for: step.status)
                var line = StyledLine("  ")
                line.append(style.symbol(for: mark), style.role(for: mark))
                line.append(" " + titles[index], step.status == .failure ? .title : nil)
                line.append(Self.blank(titleWidth - DisplayWidth.of(titles[index]) + 2))
                line.append(Self.blank(durationWidth - durations[index].count) + durations[index])
                if summary.duration > 0 {
                    let percent = Formatting.percent(min(1, step.duration / summary.duration))
                    line.append("  " + percent, .detail)
                }
                lines.append(line)
            }
        }
        if !notes.slower.isEmpty && configuration.verbosity != .quiet {
            lines.append(StyledLine("slower than usual:", .detail))
            for step in notes.slower {
                var line = StyledLine("  " + step.path + "  ")
                line.append(Formatting.duration(step.duration), .warning)
                line.append(", usually " + Formatting.duration(step.usual), .usual)
                lines.append(line)
            }
            if notes.slowerCount > notes.slower.count {
                lines.append(
                    StyledLine("  " + style.ellipsis + " and \(notes.slowerCount - notes.slower.count) more", .detail))
            }
        }
        if !notes.failures.isEmpty {
            lines.append(StyledLine("failures:", .detail))
            for failure in notes.failures {
                var line = StyledLine("  ")
                line.append(style.symbol(for: .failure), .failure)
                line.append(" " + failure.path, .title)
                if let error = failure.error, !error.isEmpty { line.append("  " + error, .failure) }
                lines.append(line)
                // A tool's error line is often its activity's error too (curl's, under an
                // adapter): said once is enough.
                for text in failure.tail where !(failure.error ?? "").contains(text) {
                    lines.append(StyledLine("    " + tailGutter + text, .tail))
                }
            }
            if notes.moreFailures > 0 {
                lines.append(StyledLine("  " + style.ellipsis + " and \(notes.moreFailures) more", .detail))
            }
        }
        return lines
    }

    /// The tally, when there is something to sum up: more than one activity, or a problem.
    func summaryLine(_ summary: ActivitySummary) -> StyledLine? {
        let problems = summary.diagnosticCount
        guard summary.begun > 1 || problems > 0 || summary.dropped > 0 else { return nil }
        var parts: [String] = []
        let order: [(ActivityEvent.Status, String)] = [
            (.success, "succeeded"), (.failure, "failed"), (.cancelled, "cancelled"), (.skipped, "skipped"),
            (.abandoned, "abandoned"),
        ]
        for (status, word) in order where summary.count(status) > 0 {
            parts.append("\(summary.count(status)) \(word)")
        }
        let noun = summary.begun == 1 ? "activity" : "activities"
        var text = "\(summary.begun) \(noun) in \(Formatting.duration(summary.duration))"
        if !parts.isEmpty { text += ": " + parts.joined(separator: ", ") }
        if summary.dropped > 0 { text += style.dot + "\(summary.dropped) not shown (too many at once)" }
        if problems > 0 { text += style.dot + "\(problems) input problem\(problems == 1 ? "" : "s")" }
        return StyledLine(text, .detail)
    }
}
