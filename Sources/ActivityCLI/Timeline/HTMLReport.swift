import ActivityTimeline

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `activity report` in bounded memory, in two passes over the recording.
///
/// The first keeps each activity's shape (a ``TimelineSkeleton``: times, parent, outcome) and
/// forgets the rest as it ends; the ``ReportPlan`` made from it says which activities the page
/// shows. The second keeps those alone, with only what the page shows of them
/// (``HTMLReportWriter/shownPart(of:)``). The page is the one ``HTMLReportWriter/write(_:)``
/// makes of the whole timeline.
enum HTMLReport {
    struct Written {
        var html: String
        var activities: Int
    }

    /// The page of the recording in `file` (`-` for standard input), or why there is none.
    static func make(_ file: String, writer: HTMLReportWriter) -> Result<Written, RecordingError> {
        let name = CommandInput.name(file)
        guard let fd = CommandInput.descriptor(for: file) else {
            return .failure(RecordingError(message: "\(file): \(POSIX.describe(errno))", exitStatus: ExitCode.noInput))
        }
        defer { CommandInput.release(fd) }
        var skeleton = TimelineSkeleton()
        var plan: ReportPlan?
        var kept: [Int: TimelineActivity] = [:]
        let passes = RecordingPass.twice(fd, name: name, command: "report") {
            skeleton.record($0, parent: $1)
        } second: { summary in
            for log in summary.looseLogs { skeleton.recordLooseLog(at: log.time) }
            skeleton.finish()
            let made = writer.plan(skeleton)
            plan = made
            var needed = [Bool](repeating: false, count: skeleton.count)
            for index in made.needed { needed[index] = true }
            return { activity, _ in
                let index = activity.sequence
                if index < needed.count && needed[index] { kept[index] = writer.shownPart(of: activity) }
            }
        }
        let summary: RecordingPass.Summary
        switch passes {
        case .success(let read): summary = read
        case .failure(let error): return .failure(error)
        }
        guard let plan, plan.needed.allSatisfy({ kept[$0] != nil }) else {
            return .failure(
                RecordingError(
                    message: "\(name): changed while it was read (an activity of the first pass is not in the second)",
                    exitStatus: ExitCode.ioError))
        }
        var page = writer
        page.skippedLines = summary.skippedLines
        let html = page.write(plan, looseLogCount: summary.looseLogs.count) { kept[$0]! }
        return .success(Written(html: html, activities: plan.skeleton.count))
    }
}
