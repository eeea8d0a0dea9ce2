import ActivityWire

/// Plain mode: one line per begin, end and log, throttled progress, no escape codes.
extension TerminalRenderer {
    func renderPlain(_ update: ActivityUpdate, in store: ActivityStore) {
        let time = update.event.timestamp ?? store.summary.lastTime ?? 0
        switch update.event {
        case .begin:
            guard let activity = update.activity, configuration.verbosity != .quiet else { return }
            var line = StyledLine(style.symbol(for: .started) + " " + pathTitle(of: activity, in: store))
            if let details = plainDetails(activity) { line.append(" (\(details))") }
            if let message = activity.message, !message.isEmpty {
                line.append(" " + style.dash + " " + message)
            }
            plainProgress[activity.id] = (time, tenth(activity))
            writePlain(line, at: time)
        case .progress:
            guard configuration.verbosity != .quiet, let activity = update.activity,
                let last = plainProgress[activity.id]
            else { return }
            let currentTenth = tenth(activity)
            guard currentTenth > last.tenth || time - last.time >= configuration.plainProgressInterval else { return }
            plainProgress[activity.id] = (time, currentTenth)
            writePlain(progressLine(activity, at: time, in: store), at: time)
        case .log(let log):
            writePlain(logLine(log, activity: update.activity, in: store), at: time)
        case .end:
            guard let activity = update.activity else { return }
            plainProgress[activity.id] = nil
            guard configuration.verbosity != .quiet || activity.status == .failure else { return }
            writePlain(endLine(activity, title: pathTitle(of: activity, in: store)), at: time)
        }
    }

    /// Which tenth of its total an activity has reached; -1 when indeterminate.
    private func tenth(_ activity: ActivityState) -> Int {
        activity.fraction.map { Int(($0 * 10).rounded(.down)) } ?? -1
    }

    /// `12 files`, `3.00 MiB`: the size of the work, for a begin line.
    private func plainDetails(_ activity: ActivityState) -> String? {
        guard let total = activity.total else { return nil }
        if activity.unit == "bytes" { return Formatting.bytes(total) }
        return Formatting.count(total) + " " + (activity.unit ?? "items")
    }

    /// `  Title  45%  45/100 files  3.60 files/s  ETA 15s  message`
    private func progressLine(_ activity: ActivityState, at time: Double, in store: ActivityStore) -> StyledLine {
        var parts = ["  " + pathTitle(of: activity, in: store)]
        if let fraction = activity.fraction {
            parts.append(Formatting.percent(fraction).drop { $0 == " " }.description)
        }
        parts.append(Formatting.progress(completed: activity.completed, total: activity.total, unit: activity.unit))
        if let rate = activity.rate(at: time), rate > 0 { parts.append(Formatting.rate(rate, unit: activity.unit)) }
        if let eta = activity.eta(at: time) { parts.append("ETA " + Formatting.eta(eta)) }
        if let message = activity.message, !message.isEmpty { parts.append(message) }
        return StyledLine(parts.joined(separator: "  "))
    }

    /// Writes one line with its elapsed-time prefix: `[  12.3s] …`.
    func writePlain(_ line: StyledLine, at time: Double?) {
        let elapsed = max(0, (time ?? startTime ?? 0) - (startTime ?? time ?? 0))
        var prefix = Formatting.duration(elapsed)
        if prefix.count < 7 { prefix = String(repeating: " ", count: 7 - prefix.count) + prefix }
        var bytes = Array("[\(prefix)] ".utf8)
        line.encoded(color: false, into: &bytes)
        bytes.append(0x0A)
        output.write(bytes)
    }
}
