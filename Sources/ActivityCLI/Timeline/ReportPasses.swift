import ActivityPOSIX
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
/// forgets the rest as it ends; the plan made from it (``ReportPlan`` for the page,
/// ``TimelineDrawing`` for the SVG image) says which activities are shown. The second keeps
/// those alone, with only what is shown of them. What is drawn from that is what the writers
/// make of the whole timeline.
enum ReportPasses {
    struct Read<Plan> {
        var plan: Plan
        /// The activities the plan needs, by sequence.
        var kept: [Int: TimelineActivity]
        var summary: RecordingPass.Summary
    }

    /// The recording in `file` (`-` for standard input) read for `plan`, or why it could not be.
    /// `needed` names the activities the plan shows; `keep` makes what is kept of each.
    static func read<Plan>(
        _ file: String, plan makePlan: (TimelineSkeleton) -> Plan, needed: (Plan) -> [Int],
        keep: @escaping (TimelineActivity) -> TimelineActivity
    ) -> Result<Read<Plan>, RecordingError> {
        let name = CommandInput.name(file)
        guard let fd = CommandInput.descriptor(for: file) else {
            return .failure(
                RecordingError(message: "\(file): \(SystemError.reason(errno))", exitStatus: ExitCode.noInput))
        }
        defer { CommandInput.release(fd) }
        var skeleton = TimelineSkeleton()
        var plan: Plan?
        var wanted: [Int] = []
        var kept: [Int: TimelineActivity] = [:]
        let passes = RecordingPass.twice(fd, name: name, command: "report") {
            skeleton.record($0, parent: $1)
        } second: { summary in
            for log in summary.looseLogs { skeleton.recordLooseLog(at: log.time) }
            skeleton.finish()
            let made = makePlan(skeleton)
            plan = made
            wanted = needed(made)
            var isWanted = [Bool](repeating: false, count: skeleton.count)
            for index in wanted { isWanted[index] = true }
            return { activity, _ in
                let index = activity.sequence
                if index < isWanted.count && isWanted[index] { kept[index] = keep(activity) }
            }
        }
        let summary: RecordingPass.Summary
        switch passes {
        case .success(let read): summary = read
        case .failure(let error): return .failure(error)
        }
        guard let plan, wanted.allSatisfy({ kept[$0] != nil }) else {
            return .failure(
                RecordingError(
                    message: "\(name): changed while it was read (an activity of the first pass is not in the second)",
                    exitStatus: ExitCode.ioError))
        }
        return .success(Read(plan: plan, kept: kept, summary: summary))
    }
}
