import ActivityWire

/// An activity as a stream of events left it: what the adapters' tests and the end-to-end tests
/// compare, one line each (`description`).
package struct EndedActivity: Equatable, CustomStringConvertible, Sendable {
    package var title: String
    package var status: ActivityEvent.Status?
    package var completed: Double
    package var total: Double?
    package var unit: String?
    package var error: String?
    package var progressEvents = 0

    package var description: String {
        "\(title) \(status?.rawValue ?? "open") \(completed)/\(total.map { "\($0)" } ?? "?") \(error ?? "")"
    }

    /// Every activity begun in `events`, in the order they began.
    package static func all(in events: [ActivityEvent]) -> [EndedActivity] {
        var order: [ActivityID] = []
        var byID: [ActivityID: EndedActivity] = [:]
        for event in events {
            switch event {
            case .begin(let begin):
                order.append(begin.id)
                byID[begin.id] = EndedActivity(
                    title: begin.title, completed: begin.completed, total: begin.total, unit: begin.unit)
            case .progress(let progress):
                if let completed = progress.completed { byID[progress.id]?.completed = completed }
                if let total = progress.total?.value { byID[progress.id]?.total = total }
                byID[progress.id]?.progressEvents += 1
            case .end(let end):
                if let completed = end.completed { byID[end.id]?.completed = completed }
                if let total = end.total?.value { byID[end.id]?.total = total }
                byID[end.id]?.status = end.status
                byID[end.id]?.error = end.error
            case .log:
                break
            }
        }
        return order.compactMap { byID[$0] }
    }

    /// Whether every activity begun in `events` ended exactly once, after its begin, with no
    /// progress outside its life.
    package static func areWellFormed(_ events: [ActivityEvent]) -> Bool {
        var open: Set<ActivityID> = []
        var ended: Set<ActivityID> = []
        for event in events {
            switch event {
            case .begin(let begin):
                guard !open.contains(begin.id), !ended.contains(begin.id) else { return false }
                open.insert(begin.id)
            case .progress(let progress):
                guard open.contains(progress.id) else { return false }
            case .end(let end):
                guard open.remove(end.id) != nil else { return false }
                ended.insert(end.id)
            case .log:
                break
            }
        }
        return open.isEmpty
    }
}
