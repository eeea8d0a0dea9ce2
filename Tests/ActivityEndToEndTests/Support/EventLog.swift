import ActivityWire

/// The events in a command's JSON-lines display output, made comparable across runs: `ts`
/// removed, random ids renamed `a1`, `a2`… in order of appearance, the owner attribute of
/// `activity emit` and the message of `abandoned` ends dropped.
struct EventLog {
    var events: [ActivityEvent] = []
    /// Lines that were not events.
    var otherLines: [String] = []

    init(_ text: String) {
        let decoder = ActivityEventDecoder()
        var names: [ActivityID: ActivityID] = [:]
        func rename(_ id: ActivityID?) -> ActivityID? {
            guard let id else { return nil }
            if let name = names[id] { return name }
            let name = ActivityID("a\(names.count + 1)")!
            names[id] = name
            return name
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
            guard case .event(var event) = decoder.decode(String(line)) else {
                otherLines.append(String(line))
                continue
            }
            event.timestamp = nil
            switch event {
            case .begin(var e):
                e.id = rename(e.id)!
                e.parent = rename(e.parent)
                e.attrs["x-activity-owner-pid"] = nil
                event = .begin(e)
            case .progress(var e):
                e.id = rename(e.id)!
                event = .progress(e)
            case .log(var e):
                e.id = rename(e.id)
                event = .log(e)
            case .end(var e):
                e.id = rename(e.id)!
                // Who noticed first that a reporter died, `run` or the store (its parent ended),
                // depends on timing; only the status is the same every time.
                if e.status == .abandoned { e.message = nil }
                event = .end(e)
            }
            events.append(event)
        }
    }

    /// The normalized events as JSON lines.
    var normalized: String {
        let encoder = ActivityEventEncoder()
        return events.map { String(decoding: encoder.encode($0), as: UTF8.self) }.joined()
    }

    /// The begin event of the activity titled `title`.
    func begin(titled title: String) -> ActivityEvent.Begin? {
        for case .begin(let begin) in events where begin.title == title { return begin }
        return nil
    }

    /// The end event of `id`.
    func end(of id: ActivityID) -> ActivityEvent.End? {
        for case .end(let end) in events where end.id == id { return end }
        return nil
    }
}

extension EventLog {
    /// Each end, in order, as its activity's title and its status: `Step 3 success`.
    var endedTitles: [String] {
        var titles: [ActivityID: String] = [:]
        var ends: [String] = []
        for event in events {
            switch event {
            case .begin(let begin): titles[begin.id] = begin.title
            case .end(let end): ends.append("\(titles[end.id] ?? "?") \(end.status.rawValue)")
            default: break
            }
        }
        return ends
    }
}
