import ActivityWire

/// Plain mode: one line per begin, end and log, throttled progress, no escape codes.
extension TerminalRenderer {
    func renderPlain(_ update: ActivityUpdate, in store: ActivityStore) {
        let time = update.timestamp
        switch update.kind {
        case .begin:
            guard configuration.verbosity != .quiet, let handle = update.handle, let activity = store[handle] else {
                return
            }
            var line = StyledLine(style.symbol(for: .started) + " " + pathTitle(of: activity, in: store))
            if let details = plainDetails(activity) { line.append(" (\(details))") }
            if let usual = usualSuffix(activity, in: store) { line.append(" (\(usual))") }
            if let message = activity.message, !message.isEmpty {
                line.append(" " + style.dash + " " + message)
            }
            markPlainProgress(handle, time: time, tenth: tenth(activity))
            writePlain(line, at: time)
        case .progress:
            // The hot path of plain mode: one array read decides whether a line is due.
            guard configuration.verbosity != .quiet, let handle = update.handle, handle.index < plainProgress.count,
                let last = plainProgress[handle.index], last.handle == handle, let activity = store[handle]
            else { return }
            let currentTenth = tenth(activity)
            guard currentTenth > last.tenth || time - last.time >= configuration.plainProgressInterval else { return }
            plainProgress[handle.index] = (handle, time, currentTenth)
            writeProgressLine(activity, at: time, in: store)
        case .log:
            guard let log = update.log else { return }
            let activity = update.handle.flatMap { store[$0] }
            writePlain(logLine(log, activity: activity, in: store), at: time)
            keepLog(log, of: activity, shownAs: permanentLines)
        case .end:
            guard let handle = update.handle, let activity = store[handle] else { return }
            if handle.index < plainProgress.count { plainProgress[handle.index] = nil }
            guard configuration.verbosity != .quiet || activity.status == .failure else { return }
            let tail = failureTail(of: activity)
            writePlain(endLine(activity, title: pathTitle(of: activity, in: store)), at: time)
            for line in tail { writePlain(line, at: time) }
        }
    }

    private func markPlainProgress(_ handle: ActivityHandle, time: Double, tenth: Int) {
        if plainProgress.count <= handle.index {
            plainProgress.append(contentsOf: repeatElement(nil, count: handle.index + 1 - plainProgress.count))
        }
        plainProgress[handle.index] = (handle, time, tenth)
    }

    /// Which tenth of its total an activity has reached; -1 when indeterminate.
    private func tenth(_ activity: ActivityState) -> Int {
        activity.fraction.map { Int(($0 * 10).rounded(.down)) } ?? -1
    }

    /// `12 files`, `3.00 MiB`, `1 item`: the size of the work, for a begin line. Without a unit
    /// the work is counted in items, the default word, which is singular for one (git's
    /// `Resolving deltas (1 item)`); a unit the producer chose is shown as it wrote it.
    private func plainDetails(_ activity: ActivityState) -> String? {
        guard let total = activity.total else { return nil }
        if activity.unit == "bytes" { return Formatting.bytes(total) }
        return Formatting.count(total) + " " + (activity.unit ?? (total == 1 ? "item" : "items"))
    }

    /// `  Title  45%  45/100 files  3.60 files/s  ETA 15s  message`, written as bytes: plain mode
    /// neither colours nor cuts, so the line needs no spans and no widths.
    private func writeProgressLine(_ activity: ActivityState, at time: Double, in store: ActivityStore) {
        let title = pathTitle(of: activity, in: store)
        writePlain(at: time) { bytes in
            func part(_ text: String) {
                bytes.append(0x20)
                bytes.append(0x20)
                StyledLine.appendUTF8(text, to: &bytes)
            }
            part(title)
            if let fraction = activity.fraction {
                part(Formatting.percent(fraction).drop { $0 == " " }.description)
            }
            part(Formatting.progress(completed: activity.completed, total: activity.total, unit: activity.unit))
            if let rate = activity.rate(at: time), rate > 0 { part(Formatting.rate(rate, unit: activity.unit)) }
            if let eta = activity.eta(at: time) { part("ETA " + Formatting.eta(eta)) }
            if let message = activity.message, !message.isEmpty { part(message) }
        }
    }

    /// Writes one line with its elapsed-time prefix: `[  12.3s] …`.
    func writePlain(_ line: StyledLine, at time: Double?) {
        writePlain(at: time) { line.encoded(colors: nil, into: &$0) }
    }

    /// Writes the line `body` appends after the elapsed-time prefix, in one write.
    private func writePlain(at time: Double?, _ body: (inout [UInt8]) -> Void) {
        let elapsed = max(0, (time ?? startTime ?? 0) - (startTime ?? time ?? 0))
        var bytes = plainLine
        plainLine = []  // the buffer is ours alone while the line is built: no copy on append
        bytes.removeAll(keepingCapacity: true)
        bytes.append(UInt8(ascii: "["))
        let prefix = Formatting.duration(elapsed).utf8
        // Right-aligned in 7 columns; the duration is ASCII.
        if prefix.count < 7 { bytes.append(contentsOf: repeatElement(0x20, count: 7 - prefix.count)) }
        bytes.append(contentsOf: prefix)
        bytes.append(UInt8(ascii: "]"))
        bytes.append(0x20)
        body(&bytes)
        bytes.append(0x0A)
        output.write(bytes)
        plainLine = bytes
        notePermanentLine()
    }
}
